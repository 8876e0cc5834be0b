#ifndef PATCHVER_LAB_DATADIR_H
#define PATCHVER_LAB_DATADIR_H

/*
 * Where the lab's data lives (guest program, kernel fragments, compat
 * series): the first of
 *   explicit (a caller's choice), $PATCHVER_GUEST_DIR,
 *   $PATCHVER_DATA_DIR/guest,
 *   <the executable's directory>/../share/patchver/guest  (an installed copy),
 *   the source tree patchver was built from (build/patchver),
 * that holds the data.  Returns it (caller frees), or NULL after printing
 * one line that names every place it looked.
 */
char *datadir_guest(const char *explicit);

#endif
