/* Must change: a zero ktime_t local used only as 0 and in equality tests. */
static int clk_throttle_info(struct hl_device *hdev, struct hl_info_clk_throttle *out)
{
	ktime_t end_time, zero_time = 0;
	int i;

	for (i = 0 ; i < HL_CLK_THROTTLE_TYPE_MAX ; i++) {
		if (ktime_compare(hdev->clk_throttling.timestamp[i].end, zero_time))
			end_time = hdev->clk_throttling.timestamp[i].end;
		else
			end_time = ktime_get();
		out->duration_ns[i] = ktime_to_ns(ktime_sub(end_time, hdev->clk_throttling.timestamp[i].start));
	}
	return 0;
}

void hl_handle_clk_change_event(struct hl_device *hdev, u16 event_type)
{
	struct hl_clk_throttle *clk_throttle = &hdev->clk_throttling;
	ktime_t zero_time = 0;

	switch (event_type) {
	case EQ_EVENT_POWER_EVT_START:
		clk_throttle->timestamp[HL_CLK_THROTTLE_TYPE_POWER].start = ktime_get();
		clk_throttle->timestamp[HL_CLK_THROTTLE_TYPE_POWER].end = zero_time;
		break;
	case EQ_EVENT_THERMAL_EVT_START:
		clk_throttle->timestamp[HL_CLK_THROTTLE_TYPE_THERMAL].start = ktime_get();
		clk_throttle->timestamp[HL_CLK_THROTTLE_TYPE_THERMAL].end = zero_time;
		break;
	}
}

ktime_t *input_get_timestamp(struct input_dev *dev)
{
	const ktime_t invalid_timestamp = 0;

	if (!ktime_compare(dev->timestamp[INPUT_CLK_MONO], invalid_timestamp))
		input_set_timestamp(dev, ktime_get());

	return dev->timestamp;
}

static bool both_orders(struct my_dev *dev)
{
	ktime_t none = 0;

	if (ktime_compare(none, dev->stamp) != 0)
		dev->seen++;
	return ktime_compare(dev->start + dev->offset, none) == 0;
}

/* Must NOT change: ordering tests of a field (its type unknown), other uses, assigned again, address taken. */
static bool ordered(struct my_dev *dev)
{
	ktime_t zero_time = 0;

	dev->end = zero_time;
	return ktime_compare(dev->start, zero_time) > 0;
}

static int returned(struct my_dev *dev)
{
	ktime_t zero_time = 0;

	dev->end = zero_time;
	return ktime_compare(dev->start, zero_time);
}

static void reassigned(struct my_dev *dev)
{
	ktime_t base = 0;

	if (dev->late)
		base = ktime_get();
	dev->end = base;
}

static void address(struct my_dev *dev)
{
	ktime_t zero_time = 0;

	dev->end = zero_time;
	fill(&zero_time);
}

static void passed(struct my_dev *dev)
{
	ktime_t zero_time = 0;

	hrtimer_start(&dev->timer, zero_time, HRTIMER_MODE_REL);
}

static void not_zero(struct my_dev *dev)
{
	ktime_t start = 5;

	dev->end = start;
}

/* Must change: declared, then assigned 0 once; ordering tests of a ktime_t local or parameter. */
static bool is_valid_timestamp(const ktime_t timestamp)
{
	ktime_t zero_time;
	ktime_t current_time;

	zero_time = 0;
	if (ktime_compare(zero_time, timestamp) >= 0)
		return false;

	current_time = ktime_get();
	return !ktime_after(timestamp, current_time);
}

static int orders(ktime_t a, struct my_dev *dev)
{
	ktime_t b = dev->stamp;
	ktime_t zero = 0;

	if (ktime_compare(a, zero) < 0)
		dev->seen++;
	if (ktime_compare(zero, a) < 0)
		dev->seen++;
	if (ktime_compare(b, zero) > 0)
		dev->seen++;
	if (ktime_compare(zero, b) > 0)
		dev->seen++;
	if (ktime_compare(a, zero) <= 0)
		dev->seen++;
	if (ktime_compare(zero, b) <= 0)
		dev->seen++;
	return ktime_compare(a, zero) >= 0;
}

/* Must NOT change: assigned twice or on two paths, address taken, used before its 0, an ordering
 * test of a value of unknown type or of a u64, initialised and assigned again. */
static bool assigned_twice(const ktime_t timestamp)
{
	ktime_t zero_time;

	zero_time = 0;
	if (ktime_compare(zero_time, timestamp) >= 0)
		return false;
	zero_time = 0;
	return ktime_compare(zero_time, timestamp) == 0;
}

static bool assigned_on_two_paths(const ktime_t timestamp, bool late)
{
	ktime_t zero_time;

	if (late)
		zero_time = 0;
	else
		zero_time = 0;
	return ktime_compare(zero_time, timestamp) >= 0;
}

static bool assigned_address(const ktime_t timestamp)
{
	ktime_t zero_time;

	zero_time = 0;
	fill(&zero_time);
	return ktime_compare(zero_time, timestamp) >= 0;
}

static bool used_before_assigned(const ktime_t timestamp)
{
	ktime_t zero_time;

	fill(&zero_time);
	zero_time = 0;
	return ktime_compare(zero_time, timestamp) >= 0;
}

static bool unknown_type(struct my_dev *dev)
{
	ktime_t zero_time;

	zero_time = 0;
	return ktime_compare(zero_time, dev->stamp) >= 0;
}

static bool unsigned_value(u64 stamp)
{
	ktime_t zero_time = 0;

	return ktime_compare(stamp, zero_time) > 0;
}

static bool initialised_and_assigned(const ktime_t timestamp)
{
	ktime_t zero_time = 0;

	zero_time = 0;
	return ktime_compare(zero_time, timestamp) >= 0;
}
