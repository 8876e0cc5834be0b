int caller(void)
{
	return helper_added_later(1);
}
