/* The crash model's reproducer: the magic argument makes the culprit warn. */
#include <stdio.h>
#include <sys/prctl.h>

int main(void)
{
	long r = prctl(0x70760001, 42, 0, 0, 0);

	printf("prctl(model, 42) = %ld\n", r);
	return 0;
}
