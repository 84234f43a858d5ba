# x86_64 QEMU q35: 4 symmetric vCPUs. Sourced by scripts/run.sh.
ARCH=x86_64
QEMU=qemu-system-x86_64
MACHINE="-M q35 -cpu qemu64 -smp 4 -m 1G -nic none"
CONSOLE=ttyS0
IMAGE=arch/x86/boot/bzImage

# What the guest checks it got: symmetric, no cpufreq, no EAS.
PLATFORM_EXPECT="wbplatform=x86_64-symmetric wbcapacity=1024,1024,1024,1024 wbopps=0,0,0,0 wbeas=0"

platform_prepare() {
	PLATFORM_ARGS=
}
