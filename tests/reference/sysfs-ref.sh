#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# An independent reading of a sysfs tree with plain shell tools (find, ls,
# find -printf %l as readlink, bash's read): no sysdev-tree, no libsysdev, no Python
# oracle.  For every directory under ROOT/devices it prints eleven fields,
# each ended by a NUL byte:
#
#   DEVPATH KIND SUBSYSTEM SUBSYSTEM_KIND DRIVER PARENT CLASS_DIR PLACEMENT
#   DEVNUM DEVTYPE DEVNAME
#
# ("-" for none; the device fields are "-" for other kinds too).
#
#   sysfs-ref.sh ROOT
#
# The rules, as the project's docs state them:
#   root       ROOT/devices itself
#   device     holds a regular file named uevent (a link named uevent is not one)
#   class-dir  not a device; its name is an entry of ROOT/class; its parent is a
#              device or ROOT/devices/virtual; it is empty or holds a directory
#              that is a device
#   attr-group any other directory with a device above it
#   container  the rest
# subsystem: last component of the subsystem link's text; its kind: where the
# link's target lies, read lexically (as text), under ROOT/bus or ROOT/class.
# driver: last component of the driver link's text.  parent: the nearest
# directory above that is a device.  class_dir: the parent directory's name
# when that directory is a class-dir.  placement: by the second component.
# devnum, devtype, devname: MAJOR:MINOR (both decimal), DEVTYPE, DEVNAME
# from the uevent file; devnum and devname only where a regular file named
# dev exists (the kernel writes both exactly when it gives a number).
set -euo pipefail
shopt -s extglob
set -f  # no globbing: names are data
export LC_ALL=C

root=${1:?usage: sysfs-ref.sh ROOT}
root=${root%/}
top="$root/devices"
[ -d "$top" ] || { echo "sysfs-ref.sh: $top: no such directory" >&2; exit 2; }

declare -A kind    # devpath -> kind
declare -A classes
while IFS= read -r -d '' c; do
    classes["${c##*/}"]=1
done < <(find "$root/class/" -mindepth 1 -maxdepth 1 -not -name '.*' -print0 2>/dev/null)

is_device() {  # DIR
    [ -f "$1/uevent" ] && [ ! -L "$1/uevent" ]
}

# Lexical normalisation of an absolute path ("." and ".." as text): sets $norm.
normalize() {
    local IFS=/ c out=()
    for c in $1; do
        case $c in
            ''|.) ;;
            ..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
            *) out+=("$c") ;;
        esac
    done
    norm="/${out[*]}"
}

# KEY=VALUE lines of a uevent file: sets $u_MAJOR $u_MINOR $u_DEVTYPE $u_DEVNAME
# (the first line of each key; - where absent)
read_uevent() {
    local line
    u_MAJOR=- u_MINOR=- u_DEVTYPE=- u_DEVNAME=-
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
            MAJOR=*) [ "$u_MAJOR" = - ] && u_MAJOR=${line#MAJOR=} ;;
            MINOR=*) [ "$u_MINOR" = - ] && u_MINOR=${line#MINOR=} ;;
            DEVTYPE=*) [ "$u_DEVTYPE" = - ] && u_DEVTYPE=${line#DEVTYPE=} ;;
            DEVNAME=*) [ "$u_DEVNAME" = - ] && u_DEVNAME=${line#DEVNAME=} ;;
        esac
    done < "$1"
}

emit() {
    printf '%s\0' "$@"
}

while IFS= read -r -d '' dir; do
    p=${dir#"$root"}
    if [ "$p" = /devices ]; then
        kind[$p]=root
        emit "$p" root - - - - - - - - -
        continue
    fi
    name=${p##*/}
    parent_dir=${p%/*}
    pk=${kind[$parent_dir]}
    # a device above? (the nearest one is the parent field)
    parent=-
    a=$parent_dir
    while [ "$a" != /devices ]; do
        if [ "${kind[$a]}" = device ]; then parent=$a; break; fi
        a=${a%/*}
    done
    if is_device "$dir"; then
        k=device
    elif [ -n "${classes[$name]:-}" ] &&
         { [ "$pk" = device ] || [ "$parent_dir" = /devices/virtual ]; } &&
         { [ -z "$(ls -A -- "$dir")" ] ||
           [ -n "$(find "$dir" -mindepth 2 -maxdepth 2 -name uevent -type f -print -quit)" ]; }; then
        k=class-dir
    elif [ "$parent" != - ]; then
        k=attr-group
    else
        k=container
    fi
    kind[$p]=$k
    if [ $k != device ]; then
        emit "$p" $k - - - - - - - - -
        continue
    fi
    sub=- subkind=- drv=- cdir=- devnum=- devtype=- devname=-
    # the texts of the subsystem and driver links (find -printf %l: readlink)
    declare -A ltext=()
    while IFS= read -r -d '' ln && IFS= read -r -d '' t; do
        ltext[$ln]=$t
    done < <(find "$dir" -mindepth 1 -maxdepth 1 -type l \( -name subsystem -o -name driver \) \
                  -printf '%f\0%l\0')
    if [ -n "${ltext[subsystem]+set}" ]; then
        t=${ltext[subsystem]}
        c=${t%%+(/)}
        c=${c##*/}
        sub=${c:--}
        case $t in
            /*) normalize "$t" ;;
            *) normalize "$dir/$t" ;;
        esac
        case $norm in
            "$root"/bus/*) subkind=bus ;;
            "$root"/class/*) subkind=class ;;
        esac
    fi
    if [ -n "${ltext[driver]+set}" ]; then
        c=${ltext[driver]%%+(/)}
        c=${c##*/}
        drv=${c:--}
    fi
    [ "$pk" = class-dir ] && cdir=${parent_dir##*/}
    case $p in
        /devices/virtual/*) place=virtual ;;
        /devices/system/*) place=system ;;
        *) place=devices ;;
    esac
    if [ -r "$dir/uevent" ]; then
        read_uevent "$dir/uevent"
        devtype=$u_DEVTYPE
        # a number and a node name only with a dev attribute (a regular file)
        if [ -f "$dir/dev" ] && [ ! -L "$dir/dev" ]; then
            if [[ $u_MAJOR =~ ^[0-9]{1,10}$ && $u_MINOR =~ ^[0-9]{1,10}$ ]]; then
                devnum=$u_MAJOR:$u_MINOR
            fi
            devname=$u_DEVNAME
        fi
    fi
    emit "$p" device "$sub" "$subkind" "$drv" "$parent" "$cdir" "$place" "$devnum" "$devtype" \
        "$devname"
done < <(find "$top" -type d -print0 | sort -z)
