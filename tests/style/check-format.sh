#!/bin/sh
# The C sources follow .clang-format: list every file clang-format would
# change, with the first lines of its diff, and fail.  Run
#   clang-format -i $(git ls-files 'src/*.[ch]' 'include/*.h' 'tools/*.[ch]')
# to apply the style.
set -u
top=${1:?usage: check-format.sh TOP [CLANG_FORMAT]}
cf=${2:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
	echo "FAIL: $cf not found (Debian package clang-format)"
	exit 1
fi
cd "$top" || exit 1
bad=0 n=0
for f in $(find src include tools -name '*.[ch]' | sort); do
	n=$((n + 1))
	if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
		echo "FAIL: $f is not formatted:"
		"$cf" --style=file "$f" | diff -u "$f" - | sed -n '3,12p'
		bad=$((bad + 1))
	fi
done
echo "$n files checked, $bad not formatted ($("$cf" --version))"
[ $bad -eq 0 ]
