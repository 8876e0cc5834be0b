/* The arbiter model's reproducer: the model request with its magic argument. */
#include <stdio.h>
#include <sys/prctl.h>

int main(void)
{
	long r = prctl(0x70760002, 42, 0, 0, 0);

	printf("prctl(model request, 42) = %ld\n", r);
	return 0;
}
