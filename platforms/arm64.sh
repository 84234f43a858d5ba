# arm64 QEMU virt as a big.LITTLE machine: 4 vCPUs in two clusters,
# CPUs 0-1 big (capacity 1024), CPUs 2-3 LITTLE (capacity 512), each cluster
# with its operating points and Energy Model.
# Sourced by scripts/run.sh; the DTB is QEMU's own, dumped with the same
# arguments and edited by mkdtb_arm64 (QEMU still fills in /chosen).
ARCH=arm64
QEMU=qemu-system-aarch64
MACHINE="-M virt -cpu cortex-a57 -smp 4 -m 1G -nic none"
CONSOLE=ttyAMA0
IMAGE=arch/arm64/boot/Image

BIG_CPUS="0 1"
LITTLE_CPUS="2 3"

# Operating points per cluster, "MHz:mV", lowest first, and the dynamic power
# coefficient (uW/MHz/V^2: P = C * V^2 * f) for the Energy Model. Read by the
# series' test cpufreq driver (drivers/cpufreq/test-cpufreq.c).
BIG_OPPS="400:700 800:800 1200:900 1600:1000 2000:1100"
BIG_POWER_COEF=400
LITTLE_OPPS="300:700 600:800 900:900 1200:1000"
LITTLE_POWER_COEF=100
# capacity = dmips-mhz * fmax, normalised to the biggest (1024 * 2000 MHz):
# LITTLE: 854 * 1200 / (1024 * 2000) * 1024 = 512
BIG_DMIPS=1024
LITTLE_DMIPS=854

# cluster NAME INDEX CPUS DMIPS OPPS COEF PHANDLE: put CPUS in cpu-map cluster
# INDEX, give them a capacity, and an OPP table shared by the cluster.
cluster() {
	name=$1 index=$2 cpus=$3 dmips=$4 opps=$5 coef=$6 phandle=$7
	table=/opp-table-$name
	fdtput -c "$tmp" $table
	fdtput -t s "$tmp" $table compatible operating-points-v2
	fdtput -t s "$tmp" $table opp-shared ""
	fdtput -t x "$tmp" $table phandle "$phandle"
	for opp in $opps; do
		mhz=${opp%:*} mv=${opp#*:}
		fdtput -c "$tmp" $table/opp-$mhz
		# opp-hz is a 64-bit value: two cells, high then low
		fdtput -t u "$tmp" $table/opp-$mhz opp-hz 0 $((mhz * 1000000))
		fdtput -t u "$tmp" $table/opp-$mhz opp-microvolt $((mv * 1000))
	done
	core=0
	for cpu in $cpus; do
		node=/cpus/cpu-map/socket0/cluster$index/core$core
		fdtput -p -c "$tmp" "$node"
		fdtput -t x "$tmp" "$node" cpu "$(fdtget -t x "$tmp" /cpus/cpu@$cpu phandle)"
		fdtput -t u "$tmp" /cpus/cpu@$cpu capacity-dmips-mhz "$dmips"
		fdtput -t x "$tmp" /cpus/cpu@$cpu operating-points-v2 "$phandle"
		fdtput -t u "$tmp" /cpus/cpu@$cpu dynamic-power-coefficient "$coef"
		core=$((core + 1))
	done
}

# QEMU's DTB, with the CPUs in two clusters and the test cpufreq driver's node.
mkdtb_arm64() {
	DTB=$OUT/virt-biglittle.dtb
	tmp=$OUT/virt-qemu.$$.dtb	# per process: guests may boot in parallel
	# shellcheck disable=SC2086
	$QEMU $MACHINE -M virt,dumpdtb="$tmp" -nographic >/dev/null 2>&1
	[ -s "$tmp" ] || die "QEMU did not dump its DTB"
	fdtput -r "$tmp" /cpus/cpu-map/socket0/cluster0
	cluster big 0 "$BIG_CPUS" $BIG_DMIPS "$BIG_OPPS" $BIG_POWER_COEF 0x7001
	cluster little 1 "$LITTLE_CPUS" $LITTLE_DMIPS "$LITTLE_OPPS" $LITTLE_POWER_COEF 0x7002
	fdtput -c "$tmp" /test-cpufreq
	fdtput -t s "$tmp" /test-cpufreq compatible linux,test-cpufreq
	mv "$tmp" "$DTB"
}

# What the guest checks it got (guest/tests.sh, check_platform):
# per CPU its capacity and number of OPPs, and EAS on.
PLATFORM_EXPECT="wbplatform=arm64-biglittle wbcapacity=1024,1024,512,512 wbopps=5,5,4,4 wbeas=1"

platform_prepare() {
	mkdtb_arm64	# cheap, and always matches $MACHINE
	PLATFORM_ARGS="-dtb $DTB"
}
