package dynamolocal

import "syscall"

// sysProcAttr makes the JVM die with its parent, so that a killed test
// binary or dev server never leaves DynamoDB Local running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
