// SPDX-License-Identifier: GPL-2.0
/*
 * sdt_testbed - a synthetic device topology for testing libsysdev.
 *
 * On load this module builds the testbed topology (tests/qemu/README.md: one
 * device for each case of the classification rules of sysdev(7)) under
 * /sys/devices;
 * on unload it removes all of it again:
 *
 *   /devices/platform/sdt-host.0                     platform device
 *     sdt-2                                          adapter on bus "sdt"
 *       2-0045                                       client on bus "sdt",
 *                                                    driver "sdt-client",
 *                                                    id/, engine/state0/,
 *                                                    latency tolerance
 *         sdtled/testbed:green:power                 class "sdtled"
 *         sdtled/testbed:red:aux                     class "sdtled"
 *         ep_00                                      no bus, no class
 *         sdtdisk/sdtdisk0                           class "sdtdisk"
 *           sdtdisk0p1                               class "sdtdisk"
 *   /devices/virtual/sdtled/sdtled-orphan            parentless class device
 *   /devices/system/sdtsys/sdtsys0                   system bus and device
 *   /devices/virtual/sdtvirt/sdtvirt0                virtual bus and device
 *   /devices/sdt-toplevel                            parentless bus device
 *   bus "sdtcoll" and class "sdtcoll"                one name, two namespaces
 *
 * 2-0045 also has kernel_tolerance_us (write N >= 0 to add or update a
 * kernel-side latency tolerance request, -1 to remove it; reads the request
 * or -1), effective_tolerance_us (the last value the PM QoS core passed
 * to the set_latency_tolerance callback, -1 before the first call) and
 * tolerance_calls (how many times the PM QoS core called that callback).
 *
 * Beyond the table, for the latency-tolerance cases it does not cover:
 *
 *   /devices/sdt-lt-early                            on bus "sdt", no driver:
 *                                                    set_latency_tolerance is
 *                                                    set before device_add(),
 *                                                    so registration (not
 *                                                    expose) adds the
 *                                                    attribute; the same
 *                                                    three files as 2-0045
 *
 * and module parameters (/sys/module/sdt_testbed/parameters/):
 *
 *   early            1 while sdt-lt-early exists; write 0 to unregister it
 *                    as it is, live user and kernel requests included (the
 *                    PM QoS core must flush them), 1 to create it again
 *   early_calls      callback calls of sdt-lt-early, kept across its
 *                    unregistration (so the flush's calls can be counted)
 *   early_effective  the last value its callback got
 *   early_flushed    after "early=0": 1 if the kernel request was left
 *                    inactive and the device's PM QoS data destroyed, 0 if
 *                    not, -1 before
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include <linux/moduleparam.h>

#define SDT_ADAPTER_NR		2
#define SDT_CLIENT_ADDR		0x45
#define SDT_DISK_MINORS		2

struct sdt_client {
	struct device dev;
	struct mutex lock;	/* serialises kernel_req and kernel_value */
	struct dev_pm_qos_request kernel_req;
	s32 kernel_value;	/* -1 while kernel_req is not active */
	s32 effective;		/* written by the PM QoS core's callback */
	unsigned int calls;	/* callback invocations, likewise */
	bool dead;		/* set under lock before unregistering */
	struct kobject *engine;
	struct kobject *state0;
};

#define to_sdt_client(d) container_of(d, struct sdt_client, dev)

static unsigned int fail_at;
module_param(fail_at, uint, 0444);
MODULE_PARM_DESC(fail_at,
		 "testing only: make creation step N fail with -ENOMEM (1-based)");

static unsigned int sdt_step;

/* sdt-lt-early: its callback's record, kept across its unregistration. */
static unsigned int sdt_early_calls;
module_param_named(early_calls, sdt_early_calls, uint, 0444);
MODULE_PARM_DESC(early_calls, "callback calls of sdt-lt-early");
static int sdt_early_effective = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;
module_param_named(early_effective, sdt_early_effective, int, 0444);
MODULE_PARM_DESC(early_effective, "last value of sdt-lt-early's callback");
static int sdt_early_flushed = -1;
module_param_named(early_flushed, sdt_early_flushed, int, 0444);
MODULE_PARM_DESC(early_flushed,
		 "1: no request left active after early=0, 0: one was, -1: not yet");

/* Fault injection, so that a test can exercise every error path of init. */
static int sdt_fault(void)
{
	return ++sdt_step == fail_at ? -ENOMEM : 0;
}

static dev_t sdtdisk_devt;

static struct platform_device *sdt_host;
static struct device *sdt_adapter;
static struct sdt_client *sdt_client;
static struct sdt_client *sdt_early;
static DEFINE_MUTEX(sdt_early_lock);	/* sdt_early, sdt_ready */
static bool sdt_ready;			/* init done, exit not started */
static struct device *sdt_led_green;
static struct device *sdt_led_red;
static struct device *sdt_ep;
static struct device *sdt_disk;
static struct device *sdt_part;
static struct device *sdt_led_orphan;
static struct device *sdt_sys0;
static struct device *sdt_virt0;
static struct device *sdt_toplevel;

/* Bus "sdt": an adapter and its client, like i2c-2 and 2-0045. */

static const struct device_type sdt_adapter_type = {
	.name = "sdt_adapter",
};

static const struct device_type sdt_client_type;
static const struct device_type sdt_early_type;

/*
 * The driver core's API changed under this module between the kernels it
 * is built for (Debian's 6.1 and 6.12): bus_type.match takes a const
 * driver since 6.11, struct class lost .owner in 6.4 (a class is no longer
 * tied to a module), and a subsystem's root device is only reachable
 * through bus_get_dev_root() since 6.3 (.dev_root was removed in 6.4).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define SDT_CONST_DRV const
#else
#define SDT_CONST_DRV
#endif

static int sdt_bus_match(struct device *dev, SDT_CONST_DRV struct device_driver *drv)
{
	return dev->type == &sdt_client_type;
}

static struct bus_type sdt_bus_type = {
	.name = "sdt",
	.match = sdt_bus_match,
};

/* Other buses and classes. */

static struct bus_type sdtsys_bus_type = {
	.name = "sdtsys",
};

static struct bus_type sdtvirt_bus_type = {
	.name = "sdtvirt",
};

static struct bus_type sdtcoll_bus_type = {
	.name = "sdtcoll",
};

static struct class sdtled_class = {
	.name = "sdtled",
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
	.owner = THIS_MODULE,
#endif
};

static struct class sdtdisk_class = {
	.name = "sdtdisk",
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
	.owner = THIS_MODULE,
#endif
};

static struct class sdtcoll_class = {
	.name = "sdtcoll",
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
	.owner = THIS_MODULE,
#endif
};

static const struct device_type sdtdisk_disk_type = {
	.name = "disk",
};

static const struct device_type sdtdisk_part_type = {
	.name = "partition",
};

/* The client's attributes: id/ and the latency tolerance test hooks. */

static ssize_t vendor_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "sdt\n");
}
static DEVICE_ATTR_RO(vendor);

static ssize_t product_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "testbed\n");
}
static DEVICE_ATTR_RO(product);

static struct attribute *sdt_client_id_attrs[] = {
	&dev_attr_vendor.attr,
	&dev_attr_product.attr,
	NULL
};

static const struct attribute_group sdt_client_id_group = {
	.name = "id",
	.attrs = sdt_client_id_attrs,
};

static ssize_t kernel_tolerance_us_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct sdt_client *client = to_sdt_client(dev);
	s32 value;

	mutex_lock(&client->lock);
	value = client->kernel_value;
	mutex_unlock(&client->lock);

	return sysfs_emit(buf, "%d\n", value);
}

static ssize_t kernel_tolerance_us_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	struct sdt_client *client = to_sdt_client(dev);
	struct dev_pm_qos_request *req = &client->kernel_req;
	s32 value;
	int ret;

	ret = kstrtos32(buf, 10, &value);
	if (ret)
		return ret;
	if (value < PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT)
		return -EINVAL;

	mutex_lock(&client->lock);
	if (client->dead) {
		ret = -ENODEV;
	} else if (value == PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT) {
		ret = 0;
		if (dev_pm_qos_request_active(req))
			ret = dev_pm_qos_remove_request(req);
	} else if (dev_pm_qos_request_active(req)) {
		ret = dev_pm_qos_update_request(req, value);
	} else {
		ret = dev_pm_qos_add_request(dev, req,
					     DEV_PM_QOS_LATENCY_TOLERANCE,
					     value);
	}
	if (ret >= 0)
		client->kernel_value = value;
	mutex_unlock(&client->lock);

	return ret < 0 ? ret : count;
}
static DEVICE_ATTR_RW(kernel_tolerance_us);

static ssize_t effective_tolerance_us_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_sdt_client(dev)->effective));
}
static DEVICE_ATTR_RO(effective_tolerance_us);

static ssize_t tolerance_calls_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_sdt_client(dev)->calls));
}
static DEVICE_ATTR_RO(tolerance_calls);

static struct attribute *sdt_client_attrs[] = {
	&dev_attr_kernel_tolerance_us.attr,
	&dev_attr_effective_tolerance_us.attr,
	&dev_attr_tolerance_calls.attr,
	NULL
};

static const struct attribute_group sdt_client_group = {
	.attrs = sdt_client_attrs,
};

static const struct attribute_group *sdt_client_groups[] = {
	&sdt_client_group,
	&sdt_client_id_group,
	NULL
};

static void sdt_client_release(struct device *dev)
{
	struct sdt_client *client = to_sdt_client(dev);

	mutex_destroy(&client->lock);
	kfree(client);
}

static const struct device_type sdt_client_type = {
	.groups = sdt_client_groups,
	.release = sdt_client_release,
};

/* sdt-lt-early: the latency attributes, no id/; the driver does not match. */
static const struct attribute_group *sdt_early_groups[] = {
	&sdt_client_group,
	NULL
};

static const struct device_type sdt_early_type = {
	.groups = sdt_early_groups,
	.release = sdt_client_release,
};

/*
 * Called by the PM QoS core, under its own mutex, whenever the effective
 * latency tolerance changes: the minimum of all requests, or a negative
 * value when there is none. Must not take client->lock (the store above
 * holds it while calling into the PM QoS core).
 */
static void sdt_client_set_latency_tolerance(struct device *dev, s32 value)
{
	struct sdt_client *client = to_sdt_client(dev);

	/* Serialised by the PM QoS core's mutex. */
	WRITE_ONCE(client->effective, value);
	WRITE_ONCE(client->calls, client->calls + 1);
	if (dev->type == &sdt_early_type) {
		WRITE_ONCE(sdt_early_effective, value);
		WRITE_ONCE(sdt_early_calls, sdt_early_calls + 1);
	}
	dev_dbg(dev, "effective latency tolerance %d\n", value);
}

/* engine/state0/: a two-level tree of bare kobjects below the client. */

static ssize_t engine_mode_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "idle\n");
}

static struct kobj_attribute engine_mode_attr =
	__ATTR(mode, 0444, engine_mode_show, NULL);

static struct attribute *engine_attrs[] = {
	&engine_mode_attr.attr,
	NULL
};

static const struct attribute_group engine_group = {
	.attrs = engine_attrs,
};

static ssize_t state_name_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", kobject_name(kobj));
}

static ssize_t state_usage_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static struct kobj_attribute state_name_attr =
	__ATTR(name, 0444, state_name_show, NULL);
static struct kobj_attribute state_usage_attr =
	__ATTR(usage, 0444, state_usage_show, NULL);

static struct attribute *state_attrs[] = {
	&state_name_attr.attr,
	&state_usage_attr.attr,
	NULL
};

static const struct attribute_group state_group = {
	.attrs = state_attrs,
};

static void sdt_client_del_engine(struct sdt_client *client)
{
	if (client->state0) {
		sysfs_remove_group(client->state0, &state_group);
		kobject_put(client->state0);
		client->state0 = NULL;
	}
	if (client->engine) {
		sysfs_remove_group(client->engine, &engine_group);
		kobject_put(client->engine);
		client->engine = NULL;
	}
}

static int sdt_client_add_engine(struct sdt_client *client)
{
	int ret;

	client->engine = kobject_create_and_add("engine", &client->dev.kobj);
	if (!client->engine)
		return -ENOMEM;
	ret = sysfs_create_group(client->engine, &engine_group);
	if (ret)
		goto err_put_engine;

	client->state0 = kobject_create_and_add("state0", client->engine);
	if (!client->state0) {
		ret = -ENOMEM;
		goto err_remove_engine_group;
	}
	ret = sysfs_create_group(client->state0, &state_group);
	if (ret)
		goto err_put_state0;

	return 0;

err_put_state0:
	kobject_put(client->state0);
	client->state0 = NULL;
err_remove_engine_group:
	sysfs_remove_group(client->engine, &engine_group);
err_put_engine:
	kobject_put(client->engine);
	client->engine = NULL;
	return ret;
}

/* The "sdt-client" driver: binds to clients, like a real i2c driver. */

static int sdt_client_probe(struct device *dev)
{
	struct sdt_client *client = to_sdt_client(dev);
	int ret;

	ret = sdt_client_add_engine(client);
	if (ret)
		return ret;

	mutex_lock(&client->lock);
	dev->power.set_latency_tolerance = sdt_client_set_latency_tolerance;
	mutex_unlock(&client->lock);

	ret = dev_pm_qos_expose_latency_tolerance(dev);
	if (ret)
		goto err_clear_callback;

	return 0;

err_clear_callback:
	mutex_lock(&client->lock);
	dev->power.set_latency_tolerance = NULL;
	mutex_unlock(&client->lock);
	sdt_client_del_engine(client);
	return ret;
}

static int sdt_client_remove(struct device *dev)
{
	struct sdt_client *client = to_sdt_client(dev);

	/* Drops the user space request too. */
	dev_pm_qos_hide_latency_tolerance(dev);

	mutex_lock(&client->lock);
	if (dev_pm_qos_request_active(&client->kernel_req))
		dev_pm_qos_remove_request(&client->kernel_req);
	client->kernel_value = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;
	dev->power.set_latency_tolerance = NULL;
	mutex_unlock(&client->lock);

	sdt_client_del_engine(client);
	return 0;
}

static struct device_driver sdt_client_driver = {
	.name = "sdt-client",
	.bus = &sdt_bus_type,
	.owner = THIS_MODULE,
	.probe = sdt_client_probe,
	.remove = sdt_client_remove,
};

/* Device creation helpers. */

static void sdt_device_release(struct device *dev)
{
	kfree(dev);
}

/* Create a device and store it in *slot; on error *slot is left NULL. */
static int sdt_device_add(struct device **slot, struct device *parent,
			  struct bus_type *bus, struct class *class,
			  const struct device_type *type, dev_t devt,
			  const char *name)
{
	struct device *dev;
	int ret;

	ret = sdt_fault();
	if (ret)
		return ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	device_initialize(dev);
	dev->parent = parent;
	dev->bus = bus;
	dev->class = class;
	dev->type = type;
	dev->devt = devt;
	dev->release = sdt_device_release;

	ret = dev_set_name(dev, "%s", name);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		pr_err("sdt_testbed: cannot add %s: %d\n", name, ret);
		put_device(dev);
		return ret;
	}
	*slot = dev;
	return 0;
}

/* A device below the root device of a system or virtual subsystem. */
static int sdt_device_add_below_root(struct device **slot,
				     struct bus_type *bus, const char *name)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	/* A reference to the root; device_add() takes its own. */
	struct device *root = bus_get_dev_root(bus);
	int ret;

	ret = sdt_device_add(slot, root, bus, NULL, NULL, 0, name);
	put_device(root);
	return ret;
#else
	return sdt_device_add(slot, bus->dev_root, bus, NULL, NULL, 0, name);
#endif
}

static void sdt_device_del(struct device **dev)
{
	if (*dev) {
		device_unregister(*dev);
		*dev = NULL;
	}
}

static struct sdt_client *sdt_client_add(struct device *parent)
{
	struct sdt_client *client;
	int ret;

	ret = sdt_fault();
	if (ret)
		return ERR_PTR(ret);

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return ERR_PTR(-ENOMEM);

	mutex_init(&client->lock);
	client->kernel_value = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;
	client->effective = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;

	/* From here on the release callback frees the client. */
	device_initialize(&client->dev);
	client->dev.parent = parent;
	client->dev.bus = &sdt_bus_type;
	client->dev.type = &sdt_client_type;

	ret = dev_set_name(&client->dev, "%d-%04x", SDT_ADAPTER_NR,
			   SDT_CLIENT_ADDR);
	if (!ret)
		ret = device_add(&client->dev);
	if (ret) {
		put_device(&client->dev);
		return ERR_PTR(ret);
	}
	return client;
}

static void sdt_client_del(void)
{
	if (!sdt_client)
		return;

	/* Unbind first, so that remove() sees a whole device. */
	device_release_driver(&sdt_client->dev);

	mutex_lock(&sdt_client->lock);
	sdt_client->dead = true;
	if (dev_pm_qos_request_active(&sdt_client->kernel_req))
		dev_pm_qos_remove_request(&sdt_client->kernel_req);
	mutex_unlock(&sdt_client->lock);

	device_unregister(&sdt_client->dev);
	sdt_client = NULL;
}

/*
 * sdt-lt-early: the callback is set before device_add(), so the device PM
 * core adds power/pm_qos_latency_tolerance_us at registration.
 * Called with sdt_early_lock held.
 */
static int sdt_early_add(void)
{
	struct sdt_client *early;
	int ret;

	early = kzalloc(sizeof(*early), GFP_KERNEL);
	if (!early)
		return -ENOMEM;

	mutex_init(&early->lock);
	early->kernel_value = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;
	early->effective = PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT;

	device_initialize(&early->dev);
	early->dev.bus = &sdt_bus_type;
	early->dev.type = &sdt_early_type;
	early->dev.power.set_latency_tolerance = sdt_client_set_latency_tolerance;

	ret = dev_set_name(&early->dev, "sdt-lt-early");
	if (!ret)
		ret = device_add(&early->dev);
	if (ret) {
		put_device(&early->dev);
		return ret;
	}
	sdt_early = early;
	return 0;
}

/*
 * Unregister sdt-lt-early.  Normally its requests are dropped first; with
 * flush, it goes as it is and the PM QoS core has to flush what is left.
 * (On 6.1 that leaks a user request: dev_pm_qos_constraints_destroy()
 * does not free it; tests/kernel has the fix and a KUnit test showing it.)
 * Called with sdt_early_lock held.
 */
static void sdt_early_del(bool flush)
{
	struct sdt_client *early = sdt_early;

	if (!early)
		return;
	sdt_early = NULL;

	if (!flush)
		dev_pm_qos_hide_latency_tolerance(&early->dev);

	mutex_lock(&early->lock);
	early->dead = true;
	if (!flush && dev_pm_qos_request_active(&early->kernel_req))
		dev_pm_qos_remove_request(&early->kernel_req);
	mutex_unlock(&early->lock);

	device_del(&early->dev);
	/* The PM QoS core's data is gone too (the user request with it). */
	if (flush)
		WRITE_ONCE(sdt_early_flushed,
			   !dev_pm_qos_request_active(&early->kernel_req) &&
			   IS_ERR(early->dev.power.qos));
	put_device(&early->dev);
}

static int sdt_early_param_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret)
		return ret;

	mutex_lock(&sdt_early_lock);
	if (!sdt_ready)
		ret = -EBUSY;
	else if (on && !sdt_early)
		ret = sdt_early_add();
	else if (!on)
		sdt_early_del(true);
	mutex_unlock(&sdt_early_lock);
	return ret;
}

static int sdt_early_param_get(char *buf, const struct kernel_param *kp)
{
	int present;

	mutex_lock(&sdt_early_lock);
	present = sdt_early != NULL;
	mutex_unlock(&sdt_early_lock);
	return sysfs_emit(buf, "%d\n", present);
}

static const struct kernel_param_ops sdt_early_param_ops = {
	.set = sdt_early_param_set,
	.get = sdt_early_param_get,
};
module_param_cb(early, &sdt_early_param_ops, NULL, 0644);
MODULE_PARM_DESC(early,
		 "at run time: 0 unregisters sdt-lt-early with its requests, 1 adds it");

/*
 * The storm (the qemu storm test): class devices below sdt-host.0, made and
 * removed in bursts through the "storm" parameter: N > 0 adds N devices
 * (sdt-host.0/sdt_storm/stormK, K never reused), N < 0 removes the last |N|
 * (all there are at most).  One uevent each.  No .owner: the class works
 * the same on kernels that have dropped that field.
 */
static struct class sdtstorm_class = {
	.name = "sdt_storm",
};

static DEFINE_MUTEX(sdt_storm_lock);
static struct device **sdt_storm_devs;
static unsigned int sdt_storm_n, sdt_storm_cap, sdt_storm_next;

/* Remove the last @n storm devices (all when @n is larger); with sdt_storm_lock. */
static void sdt_storm_del(unsigned int n)
{
	while (n-- && sdt_storm_n)
		device_unregister(sdt_storm_devs[--sdt_storm_n]);
}

static int sdt_storm_add(unsigned int n)
{
	while (n--) {
		struct device *dev;

		if (sdt_storm_n == sdt_storm_cap) {
			unsigned int cap = sdt_storm_cap ? 2 * sdt_storm_cap : 256;
			struct device **v = krealloc(sdt_storm_devs, cap * sizeof(*v), GFP_KERNEL);

			if (!v)
				return -ENOMEM;
			sdt_storm_devs = v;
			sdt_storm_cap = cap;
		}
		dev = device_create(&sdtstorm_class, &sdt_host->dev, 0, NULL, "storm%u",
				    sdt_storm_next++);
		if (IS_ERR(dev))
			return PTR_ERR(dev);
		sdt_storm_devs[sdt_storm_n++] = dev;
	}
	return 0;
}

static int sdt_storm_param_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret)
		return ret;
	mutex_lock(&sdt_storm_lock);
	if (!sdt_host)
		ret = -EBUSY;
	else if (n > 0)
		ret = sdt_storm_add(n);
	else
		sdt_storm_del(n == INT_MIN ? UINT_MAX : (unsigned int)-n);
	mutex_unlock(&sdt_storm_lock);
	return ret;
}

static int sdt_storm_param_get(char *buf, const struct kernel_param *kp)
{
	unsigned int n;

	mutex_lock(&sdt_storm_lock);
	n = sdt_storm_n;
	mutex_unlock(&sdt_storm_lock);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops sdt_storm_param_ops = {
	.set = sdt_storm_param_set,
	.get = sdt_storm_param_get,
};
module_param_cb(storm, &sdt_storm_param_ops, NULL, 0644);
MODULE_PARM_DESC(storm, "at run time: N > 0 adds N storm devices, N < 0 removes |N|");

static void sdt_storm_clear(void)
{
	mutex_lock(&sdt_storm_lock);
	sdt_storm_del(UINT_MAX);
	kfree(sdt_storm_devs);
	sdt_storm_devs = NULL;
	sdt_storm_cap = 0;
	mutex_unlock(&sdt_storm_lock);
}

/* Remove whatever sdt_devices_add() created, children before parents. */
static void sdt_devices_del(void)
{
	mutex_lock(&sdt_early_lock);
	sdt_early_del(false);
	mutex_unlock(&sdt_early_lock);
	sdt_device_del(&sdt_toplevel);
	sdt_device_del(&sdt_virt0);
	sdt_device_del(&sdt_sys0);
	sdt_device_del(&sdt_led_orphan);
	sdt_device_del(&sdt_part);
	sdt_device_del(&sdt_disk);
	sdt_device_del(&sdt_ep);
	sdt_device_del(&sdt_led_red);
	sdt_device_del(&sdt_led_green);
	sdt_client_del();
	sdt_device_del(&sdt_adapter);
	if (sdt_host) {
		platform_device_unregister(sdt_host);
		sdt_host = NULL;
	}
}

static int sdt_devices_add(void)
{
	struct device *client_dev;
	struct sdt_client *client;
	int ret;

	ret = sdt_fault();
	if (ret)
		return ret;
	sdt_host = platform_device_register_simple("sdt-host", 0, NULL, 0);
	if (IS_ERR(sdt_host)) {
		ret = PTR_ERR(sdt_host);
		sdt_host = NULL;
		return ret;
	}

	ret = sdt_device_add(&sdt_adapter, &sdt_host->dev, &sdt_bus_type,
			     NULL, &sdt_adapter_type, 0, "sdt-2");
	if (ret)
		goto err;

	client = sdt_client_add(sdt_adapter);
	if (IS_ERR(client)) {
		ret = PTR_ERR(client);
		goto err;
	}
	sdt_client = client;
	client_dev = &client->dev;

	ret = sdt_device_add(&sdt_led_green, client_dev, NULL, &sdtled_class,
			     NULL, 0, "testbed:green:power");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_led_red, client_dev, NULL, &sdtled_class,
			     NULL, 0, "testbed:red:aux");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_ep, client_dev, NULL, NULL, NULL, 0,
			     "ep_00");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_disk, client_dev, NULL, &sdtdisk_class,
			     &sdtdisk_disk_type,
			     MKDEV(MAJOR(sdtdisk_devt), 0), "sdtdisk0");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_part, sdt_disk, NULL, &sdtdisk_class,
			     &sdtdisk_part_type,
			     MKDEV(MAJOR(sdtdisk_devt), 1), "sdtdisk0p1");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_led_orphan, NULL, NULL, &sdtled_class,
			     NULL, 0, "sdtled-orphan");
	if (ret)
		goto err;
	ret = sdt_device_add_below_root(&sdt_sys0, &sdtsys_bus_type, "sdtsys0");
	if (ret)
		goto err;
	ret = sdt_device_add_below_root(&sdt_virt0, &sdtvirt_bus_type, "sdtvirt0");
	if (ret)
		goto err;
	ret = sdt_device_add(&sdt_toplevel, NULL, &sdtcoll_bus_type, NULL,
			     NULL, 0, "sdt-toplevel");
	if (ret)
		goto err;

	ret = sdt_fault();
	if (ret)
		goto err;
	mutex_lock(&sdt_early_lock);
	ret = sdt_early_add();
	mutex_unlock(&sdt_early_lock);
	if (ret)
		goto err;

	return 0;

err:
	sdt_devices_del();
	return ret;
}

static int __init sdt_testbed_init(void)
{
	int ret;

	sdt_step = 0;
	ret = sdt_fault() ?:
	      alloc_chrdev_region(&sdtdisk_devt, 0, SDT_DISK_MINORS, "sdtdisk");
	if (ret)
		return ret;

	ret = sdt_fault() ?: bus_register(&sdt_bus_type);
	if (ret)
		goto err_chrdev;
	ret = sdt_fault() ?: driver_register(&sdt_client_driver);
	if (ret)
		goto err_sdt_bus;
	ret = sdt_fault() ?: class_register(&sdtled_class);
	if (ret)
		goto err_driver;
	ret = sdt_fault() ?: class_register(&sdtdisk_class);
	if (ret)
		goto err_sdtled_class;
	ret = sdt_fault() ?: bus_register(&sdtcoll_bus_type);
	if (ret)
		goto err_sdtdisk_class;
	ret = sdt_fault() ?: class_register(&sdtcoll_class);
	if (ret)
		goto err_sdtcoll_bus;
	ret = sdt_fault() ?: subsys_system_register(&sdtsys_bus_type, NULL);
	if (ret)
		goto err_sdtcoll_class;
	ret = sdt_fault() ?: subsys_virtual_register(&sdtvirt_bus_type, NULL);
	if (ret)
		goto err_sdtsys_bus;

	/* not a fault step: the fault test's steps stay those of the seed's topology */
	ret = class_register(&sdtstorm_class);
	if (ret)
		goto err_sdtvirt_bus;
	ret = sdt_devices_add();
	if (ret)
		goto err_storm_class;

	mutex_lock(&sdt_early_lock);
	sdt_ready = true;
	mutex_unlock(&sdt_early_lock);
	pr_info("sdt_testbed: loaded\n");
	return 0;

err_storm_class:
	class_unregister(&sdtstorm_class);
err_sdtvirt_bus:
	bus_unregister(&sdtvirt_bus_type);
err_sdtsys_bus:
	bus_unregister(&sdtsys_bus_type);
err_sdtcoll_class:
	class_unregister(&sdtcoll_class);
err_sdtcoll_bus:
	bus_unregister(&sdtcoll_bus_type);
err_sdtdisk_class:
	class_unregister(&sdtdisk_class);
err_sdtled_class:
	class_unregister(&sdtled_class);
err_driver:
	driver_unregister(&sdt_client_driver);
err_sdt_bus:
	bus_unregister(&sdt_bus_type);
err_chrdev:
	unregister_chrdev_region(sdtdisk_devt, SDT_DISK_MINORS);
	return ret;
}

static void __exit sdt_testbed_exit(void)
{
	mutex_lock(&sdt_early_lock);
	sdt_ready = false;
	mutex_unlock(&sdt_early_lock);
	sdt_storm_clear();
	sdt_devices_del();
	class_unregister(&sdtstorm_class);
	bus_unregister(&sdtvirt_bus_type);
	bus_unregister(&sdtsys_bus_type);
	class_unregister(&sdtcoll_class);
	bus_unregister(&sdtcoll_bus_type);
	class_unregister(&sdtdisk_class);
	class_unregister(&sdtled_class);
	driver_unregister(&sdt_client_driver);
	bus_unregister(&sdt_bus_type);
	unregister_chrdev_region(sdtdisk_devt, SDT_DISK_MINORS);
	pr_info("sdt_testbed: unloaded\n");
}

module_init(sdt_testbed_init);
module_exit(sdt_testbed_exit);

MODULE_DESCRIPTION("Synthetic device topology for testing libsysdev");
MODULE_LICENSE("GPL");
