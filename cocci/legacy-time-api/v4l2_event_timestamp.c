// SPDX-License-Identifier: GPL-2.0-only
/* v4l2_event_timestamp.cocci: the driver's clock reading into an event the core stamps itself. */
#include <linux/time.h>
#include <media/v4l2-event.h>

struct cam_dev {
	struct video_device *vdev;
	struct v4l2_fh fh;
	struct v4l2_event last;
	struct timespec seen;
};

/* Must change: a local event, stamped last, then queued. */
static void cam_notify_error(struct cam_dev *cam, u32 type)
{
	struct v4l2_event ev;

	ev.type = type;
	ev.id = 0;
	ktime_get_ts(&ev.timestamp);
	v4l2_event_queue(cam->vdev, &ev);
}

/* Must change: stamped first, fields filled after, queued to one file handle. */
static void cam_notify_fh(struct cam_dev *cam, u8 status)
{
	struct v4l2_event ev;

	getnstimeofday(&ev.timestamp);
	ev.type = V4L2_EVENT_PRIVATE_START;
	ev.u.data[0] = status;
	v4l2_event_queue_fh(&cam->fh, &ev);
}

/* Must change: through a pointer used nowhere in between. */
static void cam_notify_ptr(struct cam_dev *cam, struct v4l2_event *evp)
{
	ktime_get_ts(&evp->timestamp);
	v4l2_event_queue(cam->vdev, evp);
}

/* Must NOT change: the driver prints the value it read. */
static void cam_notify_logged(struct cam_dev *cam)
{
	struct v4l2_event ev;

	ev.type = V4L2_EVENT_PRIVATE_START;
	ktime_get_ts(&ev.timestamp);
	v4l2_event_queue(cam->vdev, &ev);
	pr_debug("event at %ld\n", ev.timestamp.tv_sec);
}

/* Must NOT change: the event is copied (timestamp and all) before it is queued. */
static void cam_notify_kept(struct cam_dev *cam)
{
	struct v4l2_event ev;

	ev.type = V4L2_EVENT_PRIVATE_START;
	ktime_get_ts(&ev.timestamp);
	cam->last = ev;
	v4l2_event_queue(cam->vdev, &ev);
}

/* Must NOT change: the event goes to user space by the driver's own copy, never queued. */
static long cam_read_event(struct cam_dev *cam, void __user *arg)
{
	struct v4l2_event ev;

	ev.type = V4L2_EVENT_PRIVATE_START;
	ktime_get_ts(&ev.timestamp);
	if (copy_to_user(arg, &ev, sizeof(ev)))
		return -EFAULT;
	return 0;
}

/* Must NOT change: the address goes elsewhere before the queueing. */
static void cam_notify_saved(struct cam_dev *cam)
{
	struct v4l2_event ev;

	ktime_get_ts(&ev.timestamp);
	memcpy(&cam->last, &ev, sizeof(ev));
	v4l2_event_queue(cam->vdev, &ev);
}

/* Must NOT change: a timestamp member of another structure. */
struct cam_frame {
	struct timespec timestamp;
};

static void cam_frame_done(struct cam_dev *cam, struct cam_frame *frame)
{
	ktime_get_ts(&frame->timestamp);
	cam->seen = frame->timestamp;
}

/* Must NOT change: queued on one path only. */
static void cam_notify_maybe(struct cam_dev *cam, bool open)
{
	struct v4l2_event ev;

	ev.type = V4L2_EVENT_PRIVATE_START;
	ktime_get_ts(&ev.timestamp);
	if (open)
		v4l2_event_queue(cam->vdev, &ev);
}
