# Bad input to the test cpufreq driver: fast_switch=maybe, not a boolean. The
# kernel's parameter parser refuses the value with a message and the driver
# keeps its default (fast switch): the machine is the normal big.LITTLE one.
. "$TOP/platforms/arm64.sh"
PLATFORM_APPEND="test_cpufreq.fast_switch=maybe"
PLATFORM_EXPECT="wbplatform=arm64-bad-fastswitch wbcapacity=1024,1024,512,512 wbopps=5,5,4,4 wbeas=1 wblog=\`maybe'+invalid+for+parameter+\`test_cpufreq.fast_switch'"
TESTS=${TESTS:-platform:*}
