int caller(void)
{
	return MACRO_ADDED_LATER + 1;
}
