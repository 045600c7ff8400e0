package temporalcli

// quietLogger silences the SDK client while it polls a server that is still
// starting: failed attempts are expected there.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}
