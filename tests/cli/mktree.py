#!/usr/bin/env python3
"""Lay out the article's tree (the TCA6507 on omap_i2c.2) for the CLI tests."""
import os
import sys


def up(devpath):
    return "../" * devpath.strip("/").count("/") + "../"


def file(root, path, content=""):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(content)


def link(root, path, target):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    os.symlink(target, full)


def device(root, devpath, subsystem=None, driver=None, uevent="", status="unsupported"):
    rel = devpath.lstrip("/")
    file(root, rel + "/uevent", uevent)
    file(root, rel + "/power/runtime_status", status + "\n")
    if subsystem:
        kind, name = subsystem.split(":")
        top = "bus" if kind == "bus" else "class"
        link(root, rel + "/subsystem", up(devpath) + top + "/" + name)
        base = os.path.basename(devpath)
        if top == "bus":
            link(root, f"bus/{name}/devices/{base}", "../../../" + rel)
        else:
            link(root, f"class/{name}/{base}", "../../" + rel)
    if driver:
        bus = subsystem.split(":")[1] if subsystem else "none"
        os.makedirs(os.path.join(root, f"bus/{bus}/drivers/{driver}"), exist_ok=True)
        link(root, rel + "/driver", up(devpath) + f"bus/{bus}/drivers/{driver}")


def article(root):
    for d in ["class/leds", "class/i2c-adapter", "class/block", "class/net", "class/mei",
              "bus/mei", "bus/platform", "bus/i2c", "bus/cpu", "devices"]:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    c = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
    device(root, "/devices/platform")
    device(root, "/devices/platform/omap_i2c.2", "bus:platform", "omap_i2c", "DRIVER=omap_i2c\n")
    device(root, "/devices/platform/omap_i2c.2/i2c-2", "bus:i2c", None, "DEVTYPE=i2c_adapter\n",
           status="suspended")
    device(root, c, "bus:i2c", "leds-tca6507", "DRIVER=leds-tca6507\n", status="active")
    file(root, c[1:] + "/power/pm_qos_latency_tolerance_us", "auto\n")
    file(root, c[1:] + "/power/control", "auto\n")
    file(root, c[1:] + "/name", "tca6507\n")
    device(root, c + "/leds/gta04:green:power", "class:leds")
    file(root, c[1:] + "/leds/gta04:green:power/brightness", "100\n")
    device(root, c + "/leds/gta04:red:aux", "class:leds")
    device(root, c + "/ep_00", None, None, "DEVTYPE=usb_endpoint\n")
    file(root, c[1:] + "/engine/state0/latency", "5\n")
    file(root, c[1:] + "/net/carrier", "1\n")
    device(root, c + "/block/sda", "class:block", None,
           "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n")
    file(root, c[1:] + "/block/sda/dev", "8:0\n")
    device(root, c + "/block/sda/sda1", "class:block", None,
           "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n")
    file(root, c[1:] + "/block/sda/sda1/dev", "8:1\n")
    link(root, "dev/block/8:0", "../.." + c + "/block/sda")
    link(root, "dev/block/8:1", "../.." + c + "/block/sda/sda1")
    device(root, "/devices/virtual/net/lo", "class:net", None, "INTERFACE=lo\n")
    file(root, "devices/virtual/net/lo/queues/rx-0/rps_cpus", "0\n")
    os.makedirs(os.path.join(root, "devices/virtual/leds"), exist_ok=True)
    device(root, "/devices/system/cpu")
    device(root, "/devices/system/cpu/cpu0", "bus:cpu")
    os.makedirs(os.path.join(root, "devices/system/cpu/cpu0/cpuidle/state0"), exist_ok=True)
    os.makedirs(os.path.join(root, "devices/system/memory"), exist_ok=True)
    device(root, "/devices/toplevel0", "bus:mei")


if __name__ == "__main__":
    article(sys.argv[1])
