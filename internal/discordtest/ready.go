package discordtest

// HoldReady makes the next IDENTIFY wait, unanswered, until the returned
// hold is released (or the server closes): the client has its HELLO and
// waits for READY, as when Discord is slow to start a session.
func (s *Server) HoldReady() *Hold {
	h := &Hold{release: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readyHolds = append(s.readyHolds, h)
	return h
}

// waitReadyHold consumes the first hold of HoldReady, if any, and waits
// until it is released (true) or the server closes (false). It runs
// without the server's lock, which the handling of IDENTIFY takes.
func (s *Server) waitReadyHold() bool {
	s.mu.Lock()
	if len(s.readyHolds) == 0 {
		s.mu.Unlock()
		return true
	}
	h := s.readyHolds[0]
	s.readyHolds = s.readyHolds[1:]
	s.mu.Unlock()
	return h.wait(s.done)
}
