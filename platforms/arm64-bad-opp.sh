# Bad input to the test cpufreq driver: the LITTLE cluster's OPP table in the
# devicetree has no OPP. The OPP library refuses the table, and the driver
# refuses to probe rather than run one cluster without frequencies: no
# cpufreq, no Energy Model, no EAS, a message naming the cause, no splat.
. "$TOP/platforms/arm64.sh"
PLATFORM_EXPECT="wbplatform=arm64-bad-opp wbcapacity=1024,1024,854,854 wbopps=0,0,0,0 wbeas=0 wblog=cannot+read+the+CPUs'+OPP+tables"
TESTS=${TESTS:-platform:*}
# Capacities without cpufreq: arch_topology scales capacity-dmips-mhz by each
# CPU's highest frequency only once cpufreq reports it; without it the LITTLE
# CPUs keep 854 (their dmips/MHz), not 854 * 1200 / 2000 -> 512.

platform_prepare() {
	mkdtb_arm64
	bad=$OUT/virt-bad-opp.dtb
	cp "$DTB" "$bad"
	for opp in $LITTLE_OPPS; do
		fdtput -r "$bad" "/opp-table-little/opp-${opp%:*}"
	done
	PLATFORM_ARGS="-dtb $bad"
}
