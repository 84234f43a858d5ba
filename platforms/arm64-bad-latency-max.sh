# Bad input to the test cpufreq driver: transition_latency_us above its
# maximum (10000 us). Refused like 0 (see arm64-bad-latency.sh).
. "$TOP/platforms/arm64.sh"
PLATFORM_APPEND="test_cpufreq.transition_latency_us=10001"
PLATFORM_EXPECT="wbplatform=arm64-bad-latency-max wbcapacity=1024,1024,854,854 wbopps=0,0,0,0 wbeas=0 wblog=transition_latency_us=10001:+must+be+1+to+10000"
TESTS=${TESTS:-platform:*}
# Capacities without cpufreq: arch_topology scales capacity-dmips-mhz by each
# CPU's highest frequency only once cpufreq reports it; without it the LITTLE
# CPUs keep 854 (their dmips/MHz), not 854 * 1200 / 2000 -> 512.
