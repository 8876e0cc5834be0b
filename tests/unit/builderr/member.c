struct inode { int i_mode; };
int caller(struct inode *inode)
{
	return inode->i_acl_later;
}
