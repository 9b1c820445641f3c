package jsonapi

// UnknownFields is the unknown-field set (UnknownFieldSet) of Canton's
// Duration, FieldMask and ProtoAny: field numbers to their raw values.
// ledgernode prints it empty and ignores it on input, where it is still
// decoded with its type.
type UnknownFields struct {
	Fields map[int32]UnknownField `json:"fields"`
}

// UnknownField is the raw values of one unknown protobuf field (Field).
type UnknownField struct {
	Varint          []int64  `json:"varint,omitempty"`
	Fixed64         []int64  `json:"fixed64,omitempty"`
	Fixed32         []int32  `json:"fixed32,omitempty"`
	LengthDelimited []string `json:"lengthDelimited,omitempty"`
}
