/*
 * The crash model's reproducer that cannot test one state: where the
 * model option answers 1 (v6.2-rc2) it exits 125, as `git bisect run`
 * scripts say "skip".
 */
#include <stdio.h>
#include <sys/prctl.h>

int main(void)
{
	long state = prctl(0x70760001, 0, 0, 0, 0);

	printf("model state %ld\n", state);
	if (state == 1)
		return 125;
	prctl(0x70760001, 42, 0, 0, 0);
	return 0;
}
