/* Must change: inode timestamps, chained and through any expression. */
static int myfs_setattr(struct inode *dir, struct inode *inode)
{
	inode->i_mtime = inode->i_ctime = CURRENT_TIME;
	dir->i_ctime = CURRENT_TIME_SEC;
	file_inode(filp)->i_atime = CURRENT_TIME;
	return 0;
}

/* Must NOT change: no inode to ask, other fields. */
static void stamp(struct my_log *log, struct inode *inode)
{
	struct timespec now = CURRENT_TIME;

	log->when = CURRENT_TIME;
	inode->i_private_time = CURRENT_TIME;
	log->last = now;
}
