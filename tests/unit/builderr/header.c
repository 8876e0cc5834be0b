#include <linux/header_added_later.h>
int caller(void) { return 0; }
