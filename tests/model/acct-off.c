/*
 * The acct model's reproducer: acct(NULL) turns process accounting off,
 * and succeeds when it was not on.  The model flaw makes it fail with
 * EINVAL; a kernel without CONFIG_BSD_PROCESS_ACCT says ENOSYS (nothing
 * tested: exit 125, as `git bisect run` scripts say "skip").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	if (acct(NULL) == 0) {
		printf("acct(NULL): accounting off\n");
		return 0;
	}
	printf("acct(NULL): %s\n", strerror(errno));
	return errno == ENOSYS ? 125 : 1;
}
