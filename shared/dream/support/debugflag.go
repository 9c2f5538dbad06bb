package support
var debugOn = false
