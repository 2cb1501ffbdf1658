package tensor

import "syscall"

// osYield gives the core to another runnable thread, of this process or
// another, if there is one (sched_yield); otherwise it returns at once. The
// Workers' spin calls it between rounds so that spinning on a busy machine
// costs the other processes little.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
