# arm64 QEMU virt as a big.LITTLE machine: 4 vCPUs in two clusters,
# CPUs 0-1 big (capacity-dmips-mhz 1024), CPUs 2-3 LITTLE (512).
# Sourced by scripts/run.sh; the DTB is QEMU's own, dumped with the same
# arguments and edited by mkdtb_arm64 (QEMU still fills in /chosen).
QEMU=qemu-system-aarch64
MACHINE="-M virt -cpu cortex-a57 -smp 4 -m 1G -nic none"
CONSOLE=ttyAMA0
IMAGE=arch/arm64/boot/Image
DTB=$OUT/virt-biglittle.dtb
BIG_CPUS="0 1"
LITTLE_CPUS="2 3"
LITTLE_DMIPS=512

# Move each CPU into its cluster's cpu-map node and give it a capacity.
mkdtb_arm64() {
	tmp=$OUT/virt-qemu.dtb
	# shellcheck disable=SC2086
	$QEMU $MACHINE -M virt,dumpdtb="$tmp" -nographic >/dev/null 2>&1
	[ -s "$tmp" ] || die "QEMU did not dump its DTB"
	fdtput -r "$tmp" /cpus/cpu-map/socket0/cluster0
	core=0
	for cpu in $BIG_CPUS; do
		node=/cpus/cpu-map/socket0/cluster0/core$core
		fdtput -p -c "$tmp" "$node"
		fdtput -t x "$tmp" "$node" cpu "$(fdtget -t x "$tmp" /cpus/cpu@$cpu phandle)"
		fdtput -t u "$tmp" /cpus/cpu@$cpu capacity-dmips-mhz 1024
		core=$((core + 1))
	done
	core=0
	for cpu in $LITTLE_CPUS; do
		node=/cpus/cpu-map/socket0/cluster1/core$core
		fdtput -p -c "$tmp" "$node"
		fdtput -t x "$tmp" "$node" cpu "$(fdtget -t x "$tmp" /cpus/cpu@$cpu phandle)"
		fdtput -t u "$tmp" /cpus/cpu@$cpu capacity-dmips-mhz $LITTLE_DMIPS
		core=$((core + 1))
	done
	mv "$tmp" "$DTB"
}

platform_prepare() {
	mkdtb_arm64	# cheap, and always matches $MACHINE
	PLATFORM_ARGS="-dtb $DTB"
}
