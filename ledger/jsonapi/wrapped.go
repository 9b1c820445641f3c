package jsonapi

// Wrapped is the "value" layer Canton puts around the payload of a protobuf
// one-of variant: {"Variant": {"value": …}}.
type Wrapped[T any] struct {
	Value T `json:"value"`
}
