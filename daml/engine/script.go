package engine

import "context"

// ExceptionMessage returns the message of an exception value (an
// AnyException: a Daml exception record with its type, or an
// ArithmeticError): what an unhandled exception reports. The Daml Script
// runner uses it for the exceptions a script throws with the Throw
// question.
func (e *Engine) ExceptionMessage(ctx context.Context, exc *Any) (string, error) {
	m := e.newMachine(ctx)
	m.ctrl = &nExceptionMessage{exc: exc}
	v, err := e.runOnce(m)
	if err != nil {
		return "", err
	}
	t, ok := v.(Text)
	if !ok {
		return "", crash("the message of exception %s is not a Text", exceptionName(exc))
	}
	return string(t), nil
}

// nExceptionMessage computes an exception's message.
type nExceptionMessage struct{ exc *Any }

func (n *nExceptionMessage) eval(m *Machine) { m.exceptionMessage(n.exc) }
