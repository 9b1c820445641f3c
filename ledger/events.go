package ledger

// Transaction shapes.
const (
	ShapeACSDelta      = "TRANSACTION_SHAPE_ACS_DELTA"
	ShapeLedgerEffects = "TRANSACTION_SHAPE_LEDGER_EFFECTS"
)
