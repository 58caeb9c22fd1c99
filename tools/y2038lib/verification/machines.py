# SPDX-License-Identifier: GPL-2.0-only
"""The QEMU machines kernels are booted on: the architecture, its compiler,
its kernel image and the QEMU command.  The boot stage boots them; a fix
check names the ones it runs on."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Machine:
    arch: str
    karch: str
    cross: str
    image: str
    qemu: tuple
    console: str
    user_cflags: tuple
    timeout: int  # seconds from QEMU start to power-off


MACHINES = {m.arch: m for m in (
    Machine("x86_64", "x86_64", "", "arch/x86/boot/bzImage",
            ("qemu-system-x86_64", "-M", "pc", "-m", "256"), "ttyS0", (), 600),
    Machine("arm", "arm", "arm-linux-gnueabihf-", "arch/arm/boot/zImage",
            ("qemu-system-arm", "-M", "virt", "-cpu", "cortex-a15", "-m", "256"), "ttyAMA0",
            ("-D_TIME_BITS=64", "-D_FILE_OFFSET_BITS=64"), 900),
)}
