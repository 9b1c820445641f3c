package ledger

// Every contract record the tests' commits write with its decoded form is
// checked against the decoding of its bytes (setContractRecord).
func init() { verifyStoredRecords = true }
