package search

// isFault reports whether err is a SOAP Fault: the delegate answered, and refused.
func isFault(err error) bool {
	return false // TODO(search): errors.As(err, new(*soap.Fault)) once soap.Fault lands
}
