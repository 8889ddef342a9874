#!/usr/bin/env python3
"""Build a synthetic sysfs tree shaped like a large server.

Usage: gen_sysfs.py [--devices N] [--seed S] DIR

Creates DIR/{devices,bus,class,block,dev} the way the kernel lays out /sys:
PCI host bridges, root ports with their PCIe port-service devices, NVMe
controllers (class grouping dir nvme/, generic char devices ng*, namespaces
with partitions), dual-port NICs with SR-IOV virtual functions and network
devices (class grouping dir net/, queues/rx-N and tx-N attribute groups),
a USB host controller with endpoints that no bus or class links to, CPUs with
cache/cpuidle/topology attribute groups, memory blocks, NUMA nodes, virtual
ttys, loop disks, workqueues, and the S/bus, S/class, S/block and S/dev links
that point at them.  Every device directory holds `uevent`, a relative
`subsystem` link (unless the kernel would not have one), a `power/` group,
and `dev`/MAJOR/MINOR/DEVNAME where it has a device number.

N is the number of device directories (directories holding `uevent`); the
tree has exactly N of them.  The composition is a fixed fraction of N so that
trees of different sizes have the same shape and per-device cost.

Python 3 standard library only.  Files whose content is per device (uevent,
dev) are written; every other attribute is a hard link to one template inode
per content (under DIR/.sdt-attr-templates, outside devices/, bus/, class/),
so that a 100k-device tree (5.4M entries) costs dentries, not inodes and
pages.  Hard links count against a tmpfs's nr_inodes, which is why bench.py
mounts a private tmpfs with nr_inodes=0 (/dev/shm's limit is ~3M here).
10k devices build in about 4 s and 100k in 45-55 s on tmpfs (2 shared cores).
The last line on stdout is a summary:
    devices=N dirs=D files=F links=L seconds=T
"""

import argparse
import errno
import os
import stat
import sys
import time

O_W = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
EMPTY_MODE = stat.S_IFREG | 0o444
# shared attribute inodes live here, outside S/devices, S/bus and S/class
TEMPLATES = ".sdt-attr-templates"

POWER_ATTRS = {
    "async": "disabled\n",
    "autosuspend_delay_ms": "",
    "control": "auto\n",
    "runtime_active_kids": "0\n",
    "runtime_active_time": "0\n",
    "runtime_enabled": "disabled\n",
    "runtime_status": "unsupported\n",
    "runtime_suspended_time": "0\n",
    "runtime_usage": "0\n",
}

PCI_ATTRS = ["ari_enabled", "broken_parity_status", "class", "config",
             "consistent_dma_mask_bits", "d3cold_allowed", "device",
             "dma_mask_bits", "driver_override", "enable", "irq",
             "local_cpulist", "local_cpus", "modalias", "msi_bus", "numa_node",
             "power_state", "remove", "rescan", "reset", "resource",
             "revision", "subsystem_device", "subsystem_vendor", "vendor"]

BLOCK_ATTRS = ["alignment_offset", "capability", "discard_alignment",
               "diskseq", "events", "events_async", "events_poll_msecs",
               "ext_range", "hidden", "inflight", "range", "removable", "ro",
               "size", "stat"]
PART_ATTRS = ["alignment_offset", "discard_alignment", "inflight",
              "partition", "ro", "size", "start", "stat"]
QUEUE_ATTRS = ["add_random", "chunk_sectors", "dax", "discard_granularity",
               "discard_max_bytes", "discard_max_hw_bytes", "hw_sector_size",
               "io_poll", "io_poll_delay", "io_timeout", "iostats",
               "logical_block_size", "max_discard_segments",
               "max_hw_sectors_kb", "max_integrity_segments",
               "max_sectors_kb", "max_segment_size", "max_segments",
               "minimum_io_size", "nomerges", "nr_requests", "nr_zones",
               "optimal_io_size", "physical_block_size", "read_ahead_kb",
               "rotational", "rq_affinity", "scheduler", "stable_writes",
               "wbt_lat_usec", "write_cache", "write_same_max_bytes",
               "write_zeroes_max_bytes", "zone_append_max_bytes", "zoned"]
NET_ATTRS = ["addr_assign_type", "addr_len", "address", "broadcast",
             "carrier", "carrier_changes", "carrier_down_count",
             "carrier_up_count", "dev_id", "dev_port", "dormant", "duplex",
             "flags", "gro_flush_timeout", "ifalias", "ifindex", "iflink",
             "link_mode", "mtu", "name_assign_type", "napi_defer_hard_irqs",
             "netdev_group", "operstate", "phys_port_id", "phys_port_name",
             "phys_switch_id", "proto_down", "speed", "testing", "threaded",
             "tx_queue_len", "type"]
NET_STATS = ["collisions", "multicast", "rx_bytes", "rx_compressed",
             "rx_crc_errors", "rx_dropped", "rx_errors", "rx_fifo_errors",
             "rx_frame_errors", "rx_length_errors", "rx_missed_errors",
             "rx_nohandler", "rx_over_errors", "rx_packets", "tx_aborted_errors",
             "tx_bytes", "tx_carrier_errors", "tx_compressed", "tx_dropped",
             "tx_errors", "tx_fifo_errors", "tx_heartbeat_errors",
             "tx_packets", "tx_window_errors"]
CACHE_ATTRS = ["coherency_line_size", "id", "level", "number_of_sets",
               "physical_line_partition", "shared_cpu_list", "shared_cpu_map",
               "size", "type", "ways_of_associativity"]
CPUIDLE_ATTRS = ["above", "below", "default_status", "desc", "disable",
                 "latency", "name", "power", "rejected", "residency", "time",
                 "usage"]
TOPO_ATTRS = ["cluster_cpus", "cluster_cpus_list", "cluster_id", "core_cpus",
              "core_cpus_list", "core_id", "core_siblings",
              "core_siblings_list", "die_cpus", "die_cpus_list", "die_id",
              "package_cpus", "package_cpus_list", "physical_package_id",
              "thread_siblings", "thread_siblings_list"]


class Gen:
    def __init__(self, root):
        self.root = root
        self.ndev = self.ndirs = self.nfiles = self.nlinks = 0
        # (kind, name) -> list of (entry name, devpath)
        self.bus_devs = {}      # bus -> [(name, devpath)]
        self.bus_drv = {}       # (bus, driver) -> [(name, devpath)]
        self.class_devs = {}    # class -> [(name, devpath)]
        self.devnums = []       # (block|char, "M:m", devpath)
        self.disks = []         # (name, devpath)
        self.templates = {}     # content -> template file
        self.ntemplates = 0
        os.mkdir(TEMPLATES)

    # --- primitives; all paths are relative to root, no leading slash ---
    def mkdir(self, rel):
        os.mkdir(rel)
        self.ndirs += 1

    def write(self, rel, text):
        """A file whose content is unique to this device."""
        fd = os.open(rel, O_W, 0o644)
        os.write(fd, text.encode())
        os.close(fd)
        self.nfiles += 1

    def const(self, rel, text):
        """A file whose content many devices share: a hard link to one
        template inode, so that 100k devices cost dentries, not inodes and
        pages (tmpfs gives every non-empty file a page of its own)."""
        t = self.templates.get(text)
        if t is None:
            self.ntemplates += 1
            t = "%s/%d" % (TEMPLATES, self.ntemplates)
            if text:
                fd = os.open(t, O_W, 0o444)
                os.write(fd, text.encode())
                os.close(fd)
            else:
                os.mknod(t, EMPTY_MODE)
            self.templates[text] = t
        try:
            os.link(t, rel)
        except OSError as e:
            if e.errno != errno.EMLINK:     # ext4 stops at 65000 links
                raise
            del self.templates[text]
            return self.const(rel, text)
        self.nfiles += 1

    def empty(self, rel):
        self.const(rel, "")

    def link(self, rel, target):
        """Relative symlink at rel pointing at root-relative target."""
        depth = rel.count("/")
        os.symlink("../" * depth + target, rel)
        self.nlinks += 1

    def attrs(self, rel, names, values=None):
        for n in names:
            v = values.get(n) if values else None
            if v is None:
                self.empty(rel + "/" + n)
            else:
                self.write(rel + "/" + n, v)

    def group(self, rel, names, values=None):
        self.mkdir(rel)
        self.attrs(rel, names, values)

    def power(self, rel, status="unsupported", extra=None):
        p = rel + "/power"
        self.mkdir(p)
        for n, v in POWER_ATTRS.items():
            if n == "runtime_status":
                v = status + "\n"
            self.const(p + "/" + n, v)
        if extra:
            for n, v in extra.items():
                self.const(p + "/" + n, v)

    # --- a device directory ---
    def device(self, rel, *, bus=None, cls=None, driver=None, uevent=None,
               devnum=None, devname=None, devtype=None, status="unsupported",
               power_extra=None, parent_dev=None, register=True, power=True):
        """rel: devpath without the leading slash (devices/...)."""
        self.mkdir(rel)
        self.ndev += 1
        name = rel.rsplit("/", 1)[1]
        lines = []
        if devnum:
            ma, mi = devnum.split(":")
            lines += ["MAJOR=" + ma, "MINOR=" + mi, "DEVNAME=" + (devname or name)]
        if devtype:
            lines.append("DEVTYPE=" + devtype)
        if driver:
            lines.append("DRIVER=" + driver)
        if uevent:
            lines += uevent
        text = "".join(l + "\n" for l in lines)
        if lines and devnum or "INTERFACE=" in text or "PCI_SLOT_NAME" in text:
            self.write(rel + "/uevent", text)
        else:
            self.const(rel + "/uevent", text)
        if devnum:
            self.write(rel + "/dev", devnum + "\n")
        if bus:
            self.link(rel + "/subsystem", "bus/" + bus)
            if register:
                self.bus_devs.setdefault(bus, []).append((name, rel))
            if driver:
                self.link(rel + "/driver", "bus/%s/drivers/%s" % (bus, driver))
                self.bus_drv.setdefault((bus, driver), []).append((name, rel))
        elif cls:
            self.link(rel + "/subsystem", "class/" + cls)
            if register:
                self.class_devs.setdefault(cls, []).append((name, rel))
        if parent_dev:
            self.link(rel + "/device", parent_dev)
        if devnum:
            kind = "block" if cls == "block" else "char"
            self.devnums.append((kind, devnum, rel))
        if power:
            self.power(rel, status, power_extra)
        return rel


def plan(n):
    """Split n devices into the parts of a server; fixed fractions."""
    p = {}
    p["mem"] = int(n * 0.31)
    p["cpu"] = max(2, n // 200)                 # 6 devices per cpu
    p["nvme"] = max(1, int(n * 0.25) // 14)     # 14 devices per controller
    p["nic"] = max(1, int(n * 0.08) // 6)       # 6 devices per dual-port NIC
    p["tty"] = int(n * 0.04)
    p["loop"] = int(n * 0.02)
    p["wq"] = int(n * 0.01)
    return p


def build(root, n):
    t0 = time.perf_counter()
    os.makedirs(root, exist_ok=True)
    os.chdir(root)
    for d in ("devices", "bus", "class", "block", "dev", "dev/block",
              "dev/char"):
        os.mkdir(d)
    g = Gen(root)
    g.ndirs += 0
    p = plan(n)
    cpus = p["cpu"]
    nodes = max(1, min(8, cpus // 16))

    # ---- containers and bus roots ----
    g.mkdir("devices/system")
    g.mkdir("devices/virtual")
    g.device("devices/platform", uevent=None, register=False)
    g.device("devices/system/cpu", bus="cpu", register=False,
             uevent=["MODALIAS=cpu:type:x86,ven0002fam0019mod0001:feature:,0000"])
    for d in ("cpufreq", "cpuidle", "hotplug", "smt", "vulnerabilities"):
        g.group("devices/system/cpu/" + d, ["a", "b"])
    g.attrs("devices/system/cpu", ["enabled", "isolated", "kernel_max",
                                   "modalias", "offline", "online",
                                   "possible", "present"])
    g.device("devices/system/memory", bus="memory", register=False)
    g.attrs("devices/system/memory", ["auto_online_blocks", "block_size_bytes"])
    g.device("devices/system/node", bus="node", register=False)
    g.device("devices/virtual/workqueue", bus="workqueue", register=False)
    # ACPI: the targets of the PCI functions' firmware_node links
    g.device("devices/LNXSYSTM:00", bus="acpi", uevent=["MODALIAS=acpi:LNXSYSTM:"])
    g.device("devices/LNXSYSTM:00/LNXSYBUS:00", bus="acpi",
             uevent=["MODALIAS=acpi:LNXSYBUS:"])

    # ---- NUMA nodes ----
    for i in range(nodes):
        r = g.device("devices/system/node/node%d" % i, bus="node")
        g.attrs(r, ["compact", "cpulist", "cpumap", "distance", "meminfo",
                    "numastat", "reclaim", "vmstat"])
        g.mkdir(r + "/hugepages")
        for hp in ("hugepages-1048576kB", "hugepages-2048kB"):
            g.group(r + "/hugepages/" + hp, ["free_hugepages", "nr_hugepages",
                                              "surplus_hugepages"])

    # ---- CPUs ----
    for c in range(cpus):
        r = g.device("devices/system/cpu/cpu%d" % c, bus="cpu",
                     driver="processor",
                     uevent=["MODALIAS=cpu:type:x86,ven0002fam0019mod0001:feature:,0000"],
                     power_extra={"pm_qos_resume_latency_us": "0\n"})
        g.attrs(r, ["crash_notes", "crash_notes_size", "online"], {"online": "1\n"})
        g.group(r + "/topology", TOPO_ATTRS)
        g.group(r + "/hotplug", ["fail", "state", "target"])
        # cache and cache/indexN are devices (cpu_device_create) with a
        # uevent but no subsystem link and no power group
        g.device(r + "/cache", power=False, register=False)
        for k in range(4):
            ix = g.device(r + "/cache/index%d" % k, power=False, register=False)
            g.attrs(ix, CACHE_ATTRS, {"level": "%d\n" % max(1, k)})
        g.group(r + "/cpuidle", [])
        for k in range(3):
            g.group(r + "/cpuidle/state%d" % k, CPUIDLE_ATTRS)
        g.link(r + "/node%d" % (c % nodes), "devices/system/node/node%d" % (c % nodes))

    # ---- memory blocks ----
    for m in range(p["mem"]):
        r = g.device("devices/system/memory/memory%d" % m, bus="memory")
        g.attrs(r, ["online", "phys_device", "phys_index", "removable",
                    "state", "valid_zones"],
                {"online": "1\n", "state": "online\n",
                 "phys_index": "%08x\n" % m})
        g.link(r + "/node%d" % (m % nodes), "devices/system/node/node%d" % (m % nodes))

    # ---- PCI ----
    # EPYC-style: several host bridges, each with root ports; every endpoint
    # behind its own root port, which carries PCIe port-service devices.
    # Host bridges are made as needed, four per PCI segment (EPYC style,
    # 0x40 buses each), at most 63 root ports per host bridge.
    roots = []          # [host bridge devpath, segment, first bus, ports used]

    def host_bridge():
        k = len(roots)
        seg, base = k // 4, 0x40 * (k % 4)
        name = "pci%04x:%02x" % (seg, base)
        r = g.device("devices/" + name, register=False)
        g.attrs(r, ["waiting_for_supplier"])
        g.mkdir(r + "/pci_bus")
        g.device(r + "/pci_bus/%04x:%02x" % (seg, base), cls="pci_bus")
        roots.append([r, seg, base, 0])
        return roots[-1]

    def pci_fn(parent, bdf, driver, cls_hex, status="active", numa=0):
        r = g.device(parent + "/" + bdf, bus="pci", driver=driver,
                     uevent=["PCI_CLASS=%s" % cls_hex,
                             "PCI_ID=1022:1483", "PCI_SUBSYS_ID=1022:1453",
                             "PCI_SLOT_NAME=" + bdf,
                             "MODALIAS=pci:v00001022d00001483sv00001022sd00001453bc06sc04i00"],
                     status=status)
        g.attrs(r, PCI_ATTRS, {"class": "0x%s\n" % cls_hex,
                               "vendor": "0x1022\n", "device": "0x1483\n",
                               "numa_node": "%d\n" % numa})
        g.group(r + "/msi_irqs", [str(40 + i) for i in range(4)])
        g.group(r + "/link", ["l1_aspm"])
        g.link(r + "/firmware_node", "devices/LNXSYSTM:00/LNXSYBUS:00")
        return r

    rr = {"n": 0}

    def root_port():
        """A new root port, round robin over 4 host bridges, each with its
        own secondary bus; returns (root port devpath, segment, bus, numa)."""
        k = rr["n"] % 4 + 4 * (rr["n"] // (4 * 63))
        rr["n"] += 1
        while len(roots) <= k:
            host_bridge()
        hb = roots[k]
        port = hb[3]
        hb[3] += 1
        bdf = "%04x:%02x:%02x.%d" % (hb[1], hb[2], 1 + port // 8, port % 8)
        rp = pci_fn(hb[0], bdf, "pcieport", "060400", numa=k % nodes)
        g.device(rp + "/%s:pcie002" % bdf, bus="pci_express", driver="aer")
        return rp, hb[1], hb[2] + 1 + port, k % nodes

    # NVMe: root port + port service + function + nvme + 2 x (ng + ns + 3 parts)
    nvme_minor = {"blk": 0}
    for c in range(p["nvme"]):
        rp, seg, bus, numa = root_port()
        fn = pci_fn(rp, "%04x:%02x:00.0" % (seg, bus), "nvme", "010802", numa=numa)
        g.mkdir(fn + "/nvme")
        ctl = g.device(fn + "/nvme/nvme%d" % c, cls="nvme", devnum="242:%d" % c,
                       parent_dev=fn)
        g.attrs(ctl, ["address", "cntlid", "cntrltype", "dctype",
                      "firmware_rev", "kato", "model", "numa_node",
                      "queue_count", "serial", "sqsize", "state",
                      "subsysnqn", "transport", "reset_controller",
                      "rescan_controller", "delete_controller"],
                {"model": "SAMSUNG MZQL27T6HBLA-00A07\n", "state": "live\n",
                 "transport": "pcie\n"})
        for ns in range(1, 3):
            nm = "nvme%dn%d" % (c, ns)
            g.device(ctl + "/ng%dn%d" % (c, ns), cls="nvme-generic",
                     devnum="240:%d" % (2 * c + ns - 1), parent_dev=ctl)
            mi = nvme_minor["blk"]
            nvme_minor["blk"] += 4
            disk = g.device(ctl + "/" + nm, cls="block", devnum="259:%d" % mi,
                            devtype="disk", uevent=["DISKSEQ=%d" % (mi + 1)],
                            parent_dev=ctl)
            g.disks.append((nm, disk))
            g.attrs(disk, BLOCK_ATTRS + ["nsid", "wwid", "eui"],
                    {"size": "7501476528\n", "ro": "0\n", "removable": "0\n",
                     "nsid": "%d\n" % ns})
            g.group(disk + "/queue", QUEUE_ATTRS)
            g.mkdir(disk + "/mq")
            for q in range(4):
                g.group(disk + "/mq/%d" % q, ["cpu_list", "nr_reserved_tags", "nr_tags"])
            g.mkdir(disk + "/holders")
            g.mkdir(disk + "/slaves")
            g.group(disk + "/trace", ["act_mask", "enable", "end_lba", "pid", "start_lba"])
            g.group(disk + "/integrity", ["device_is_integrity_capable", "format",
                                          "read_verify", "tag_size", "write_generate"])
            for pt in range(1, 4):
                pn = "%sp%d" % (nm, pt)
                part = g.device(disk + "/" + pn, cls="block",
                                devnum="259:%d" % (mi + pt), devtype="partition",
                                uevent=["PARTN=%d" % pt])
                g.attrs(part, PART_ATTRS, {"partition": "%d\n" % pt})
                g.mkdir(part + "/holders")
                g.group(part + "/trace", ["act_mask", "enable", "end_lba", "pid", "start_lba"])

    # NICs: root port + port service + 2 PFs (+VFs later) + net devices
    ifindex = {"n": 2}
    pfs = []

    def netdev(parent, name, queues, driver_dev):
        g.mkdir(parent + "/net") if not os.path.isdir(parent + "/net") else None
        ifi = ifindex["n"]
        ifindex["n"] += 1
        r = g.device(parent + "/net/" + name, cls="net",
                     uevent=["INTERFACE=" + name, "IFINDEX=%d" % ifi],
                     parent_dev=driver_dev)
        g.attrs(r, NET_ATTRS, {"address": "3c:ec:ef:00:%02x:%02x\n" % (ifi >> 8 & 255, ifi & 255),
                               "operstate": "up\n", "mtu": "1500\n",
                               "ifindex": "%d\n" % ifi})
        g.group(r + "/statistics", NET_STATS)
        g.mkdir(r + "/queues")
        for q in range(queues):
            g.group(r + "/queues/rx-%d" % q, ["rps_cpus", "rps_flow_cnt"])
            t = r + "/queues/tx-%d" % q
            g.group(t, ["traffic_class", "tx_maxrate", "tx_timeout",
                        "xps_cpus", "xps_rxqs"])
            g.group(t + "/byte_queue_limits", ["hold_time", "inflight", "limit",
                                               "limit_max", "limit_min"])
        return r

    eth = 0
    for c in range(p["nic"]):
        rp, seg, bus, numa = root_port()
        for f in range(2):
            fn = pci_fn(rp, "%04x:%02x:00.%d" % (seg, bus, f), "ice", "020000",
                        numa=numa)
            pfs.append((fn, seg, bus, numa))
            netdev(fn, "eth%d" % eth, 16, fn)
            eth += 1

    # ---- USB: controller, two root hubs, interfaces, endpoints ----
    rp, seg, bus, numa = root_port()
    xh = pci_fn(rp, "%04x:%02x:00.3" % (seg, bus), "xhci_hcd", "0c0330")
    for h in (1, 2):
        hub = g.device(xh + "/usb%d" % h, bus="usb", driver="usb",
                       devnum="189:%d" % (128 * (h - 1)), devtype="usb_device",
                       devname="bus/usb/%03d/001" % h,
                       uevent=["PRODUCT=1d6b/%d/610" % (h + 1), "TYPE=9/0/1", "BUSNUM=%03d" % h, "DEVNUM=001"])
        g.attrs(hub, ["authorized", "bConfigurationValue", "bDeviceClass",
                      "busnum", "devnum", "idProduct", "idVendor", "speed",
                      "manufacturer", "product", "serial", "version"])
        g.device(hub + "/ep_00", uevent=["DEVTYPE=usb_endpoint"])
        intf = g.device(hub + "/%d-0:1.0" % h, bus="usb", driver="hub",
                        devtype="usb_interface",
                        uevent=["INTERFACE=9/0/0", "MODALIAS=usb:v1D6Bp0002d0610dc09dsc00dp01ic09isc00ip00in00"])
        g.attrs(intf, ["bAlternateSetting", "bInterfaceClass",
                       "bInterfaceNumber", "bNumEndpoints", "modalias"])
        g.device(intf + "/ep_81", uevent=["DEVTYPE=usb_endpoint"])
        for port in (1, 2):
            pr = g.device(intf + "/usb%d-port%d" % (h, port),
                          uevent=["DEVTYPE=usb_port"], status="active")
            g.attrs(pr, ["connect_type", "location", "over_current_count",
                         "quirks"], {"connect_type": "hotplug\n"})

    # ---- platform: serial ports with tty in a class grouping dir ----
    s8250 = g.device("devices/platform/serial8250", bus="platform",
                     driver="serial8250", uevent=["MODALIAS=platform:serial8250"])
    g.mkdir(s8250 + "/tty")
    for i in range(4):
        t = g.device(s8250 + "/tty/ttyS%d" % i, cls="tty", devnum="4:%d" % (64 + i),
                     parent_dev=s8250)
        g.attrs(t, ["close_delay", "closing_wait", "custom_divisor", "flags",
                    "io_type", "iomem_base", "irq", "line", "port", "type",
                    "uartclk", "xmit_fifo_size"])

    # ---- virtual ----
    for d in ("tty", "block", "net", "mem", "misc"):
        g.mkdir("devices/virtual/" + d)
    lo = g.device("devices/virtual/net/lo", cls="net",
                  uevent=["INTERFACE=lo", "IFINDEX=1"])
    g.attrs(lo, NET_ATTRS)
    g.group(lo + "/statistics", NET_STATS)
    g.mkdir(lo + "/queues")
    g.group(lo + "/queues/rx-0", ["rps_cpus", "rps_flow_cnt"])
    g.group(lo + "/queues/tx-0", ["traffic_class", "tx_maxrate", "tx_timeout", "xps_cpus", "xps_rxqs"])
    for i, nm in enumerate(["mem", "kmem", "null", "port", "zero", "full", "random", "urandom"]):
        g.device("devices/virtual/mem/" + nm, cls="mem", devnum="1:%d" % (i + 1))
    for i in range(p["tty"]):
        name, num = ("tty%d" % i, "4:%d" % i) if i < 64 else ("ttyX%d" % i, "204:%d" % i)
        g.device("devices/virtual/tty/" + name, cls="tty", devnum=num)
    for i in range(p["loop"]):
        d = g.device("devices/virtual/block/loop%d" % i, cls="block",
                     devnum="7:%d" % i, devtype="disk", uevent=["DISKSEQ=%d" % (100000 + i)])
        g.disks.append(("loop%d" % i, d))
        g.attrs(d, BLOCK_ATTRS, {"size": "0\n"})
        g.group(d + "/queue", QUEUE_ATTRS)
        g.group(d + "/loop", ["autoclear", "backing_file", "dio", "offset", "partscan", "sizelimit"]) if i % 8 == 0 else None
        g.mkdir(d + "/holders")
        g.mkdir(d + "/slaves")
    for i in range(p["wq"]):
        w = g.device("devices/virtual/workqueue/wq%d" % i, bus="workqueue")
        g.attrs(w, ["cpumask", "max_active", "nice", "numa", "per_cpu"])

    # ---- fill to exactly n devices with SR-IOV VFs (pci function + net) ----
    vf = 0
    while g.ndev + 2 <= n:
        pf, seg, bus, numa = pfs[vf % len(pfs)]
        # VFs live beside their PF, on the same secondary bus, functions
        # 0x10.. shared by the two PFs of a NIC
        num = 0x10 + vf // len(pfs) * 2 + (vf % len(pfs)) % 2
        bdf = "%04x:%02x:%02x.%d" % (seg, bus, num // 8, num % 8)
        rp = pf[: pf.rfind("/")]
        fn = pci_fn(rp, bdf, "iavf", "020000", numa=numa)
        g.link(fn + "/physfn", pf)
        g.link(pf + "/virtfn%d" % (vf // len(pfs)), fn)
        netdev(fn, "eth%d" % eth, 4, fn)
        eth += 1
        vf += 1
    while g.ndev < n:
        i = g.ndev
        g.device("devices/virtual/misc/sdtfill%d" % i, cls="misc",
                 devnum="10:%d" % (200 + i % 50))

    # ---- S/bus, S/class, S/block, S/dev ----
    buses = set(g.bus_devs) | {b for b, _ in g.bus_drv} | {"pci", "cpu", "memory", "node", "workqueue", "platform", "usb", "pci_express", "acpi"}
    for b in sorted(buses):
        base = "bus/" + b
        os.mkdir(base)
        os.mkdir(base + "/devices")
        os.mkdir(base + "/drivers")
        g.ndirs += 3
        g.attrs(base, ["drivers_autoprobe", "drivers_probe", "uevent"])
        for name, rel in g.bus_devs.get(b, []):
            g.link(base + "/devices/" + name, rel)
    for (b, drv), devs in sorted(g.bus_drv.items()):
        d = "bus/%s/drivers/%s" % (b, drv)
        if not os.path.isdir(d):
            g.mkdir(d)
            g.attrs(d, ["bind", "unbind", "uevent"])
        for name, rel in devs:
            g.link(d + "/" + name, rel)
    # a name that is both a bus and a class, as on real machines (nd, mei)
    g.bus_devs.setdefault("nd", [])
    os.makedirs("bus/nd/devices")
    os.makedirs("bus/nd/drivers")
    os.makedirs("class/nd")
    g.ndirs += 4
    for c in sorted(set(g.class_devs) | {"nvme", "net", "block", "tty", "mem", "misc", "hwmon", "nvme-generic", "pci_bus"}):
        base = "class/" + c
        if not os.path.isdir(base):
            g.mkdir(base)
        for name, rel in g.class_devs.get(c, []):
            g.link(base + "/" + name, rel)
    for name, rel in g.disks:
        g.link("block/" + name, rel)
    for kind, num, rel in g.devnums:
        g.link("dev/%s/%s" % (kind, num), rel)
    return g, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devices", "-n", type=int, default=1000)
    ap.add_argument("dir")
    a = ap.parse_args()
    if a.devices < 120:
        ap.error("--devices must be at least 120")
    if os.path.exists(a.dir) and os.listdir(a.dir):
        ap.error("%s exists and is not empty" % a.dir)
    root = os.path.abspath(a.dir)
    g, secs = build(root, a.devices)
    print("devices=%d dirs=%d files=%d links=%d seconds=%.2f"
          % (g.ndev, g.ndirs, g.nfiles, g.nlinks, secs))


if __name__ == "__main__":
    main()
