# The arm64 big.LITTLE guest with the test cpufreq driver in slow-switch mode:
# schedutil cannot change the frequency from the scheduler and wakes its
# worker thread ("sugov:N", a SCHED_DEADLINE kernel thread), which spends
# transition_latency_us in the driver. Same kernel and initramfs as arm64.
. "$TOP/platforms/arm64.sh"
PLATFORM_APPEND="test_cpufreq.fast_switch=0 test_cpufreq.transition_latency_us=500"
PLATFORM_EXPECT="wbplatform=arm64-slowswitch wbcapacity=1024,1024,512,512 wbopps=5,5,4,4 wbeas=1"
