struct board_buffer {
	struct videobuf_buffer vb;
	struct timeval ts;
	int fmt;
};

struct board_frame {
	struct timeval ts;
	u32 seq;
};

/* Must change: a videobuf buffer reached through the driver's own buffer. */
static void board_buffer_done(struct board_dev *dev, struct board_buffer *buf)
{
	buf->vb.state = VIDEOBUF_DONE;
	do_gettimeofday(&buf->vb.ts);
	wake_up(&buf->vb.done);
}

/* Must change: a struct videobuf_buffer pointer. */
static void board_vb_done(struct videobuf_buffer *vb)
{
	vb->field_count++;
	do_gettimeofday(&vb->ts);
}

/* Must NOT change: ts fields of other structures (a frame header copied out, the driver's own stamp). */
static void board_frame_fill(struct board_frame *frame, struct board_buffer *buf)
{
	do_gettimeofday(&frame->ts);
	do_gettimeofday(&buf->ts);
}
