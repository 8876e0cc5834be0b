int caller(void)
{
	type_added_later_t x = 0;
	return x;
}
