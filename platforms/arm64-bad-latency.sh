# Bad input to the test cpufreq driver: transition_latency_us=0. The driver
# must refuse to probe with a message naming the parameter and its range, and
# leave the machine without cpufreq (no OPPs, no Energy Model, no EAS); the
# kernel must not splat. Only the platform check and the log check run.
. "$TOP/platforms/arm64.sh"
PLATFORM_APPEND="test_cpufreq.transition_latency_us=0"
PLATFORM_EXPECT="wbplatform=arm64-bad-latency wbcapacity=1024,1024,854,854 wbopps=0,0,0,0 wbeas=0 wblog=transition_latency_us=0:+must+be+1+to+10000"
TESTS=${TESTS:-platform:*}
# Capacities without cpufreq: arch_topology scales capacity-dmips-mhz by each
# CPU's highest frequency only once cpufreq reports it; without it the LITTLE
# CPUs keep 854 (their dmips/MHz), not 854 * 1200 / 2000 -> 512.
