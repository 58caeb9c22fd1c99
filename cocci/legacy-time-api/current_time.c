/* Must change: inode timestamps, chained and through any expression. */
static int myfs_setattr(struct inode *dir, struct inode *inode)
{
	inode->i_mtime = inode->i_ctime = CURRENT_TIME;
	dir->i_ctime = CURRENT_TIME_SEC;
	file_inode(filp)->i_atime = CURRENT_TIME;
	return 0;
}

/* Must change: the file system's granularity spelled out. */
static void myfs_touch(struct inode *inode, struct super_block *sb)
{
	inode->i_atime = current_fs_time(inode->i_sb);
	inode->i_mtime = timespec_trunc(current_kernel_time(), sb->s_time_gran);
	inode->i_ctime = timespec_trunc(CURRENT_TIME, inode->i_sb->s_time_gran);
}

/* Must NOT change: no inode to ask, other fields. */
static void stamp(struct my_log *log, struct inode *inode)
{
	struct timespec now = CURRENT_TIME;

	log->when = CURRENT_TIME;
	inode->i_private_time = CURRENT_TIME;
	log->last = now;
}

/* Must NOT change: truncation of something else than an inode timestamp. */
static void log_stamp(struct my_log *log, struct super_block *sb)
{
	log->when = current_fs_time(sb);
	log->trunc = timespec_trunc(log->raw, sb->s_time_gran);
}

/* Must change: a struct iattr, with the inode a parameter or a local. */
static int myfs_acl_mode(struct inode *inode, umode_t mode)
{
	struct iattr attr;

	attr.ia_valid = ATTR_MODE | ATTR_CTIME;
	attr.ia_mode = mode;
	attr.ia_ctime = CURRENT_TIME_SEC;
	return myfs_do_setattr(inode, &attr);
}

static int myfs_touch_dentry(struct dentry *dentry, struct iattr *ia)
{
	struct inode *inode = d_inode(dentry);

	ia->ia_mtime = ia->ia_atime = CURRENT_TIME;
	return myfs_do_setattr(inode, ia);
}

/* Must NOT change: no inode at hand. */
static void myfs_fill_attr(struct iattr *ia)
{
	ia->ia_mtime = CURRENT_TIME;
}
