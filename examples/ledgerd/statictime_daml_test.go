package main

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/lf/lftest"
)

// clockPackage has a template Main:Clock {owner} with a non-consuming
// choice Now that returns getTime.
func clockPackage() lftest.Package {
	return lftest.Package{Name: "clock", Version: "1.0.0", Imports: []string{}, Modules: []lftest.Module{{Name: "Main",
		DataTypes: []lftest.DataType{{Name: "Clock", Serializable: true, Fields: []lftest.Field{{Name: "owner", Type: lftest.B(lftest.Party)}}}},
		Templates: []lftest.Template{{Name: "Clock", Choices: []lftest.Choice{{Name: "Now", Arg: lftest.B(lftest.Unit), Ret: lftest.B(lftest.Timestamp),
			Update: &lf.EUpdate{Update: &lf.UGetTime{}}}}}},
	}}}
}

// TestStaticTimeInDaml: on a static clock, a contract's createdAt and
// getTime in a choice are the node's static time, moved over HTTP.
func TestStaticTimeInDaml(t *testing.T) {
	t.Parallel()
	base, _ := start(t, "-in-memory", "-auth", "none", "-static-time=2030-01-01T00:00:00Z")
	dar, ids := lftest.DAR(clockPackage())
	resp, err := http.Post(base+"/v2/dars", "", bytes.NewReader(dar))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("upload: %v %v", resp, err)
	}
	resp.Body.Close()
	code, body := call(t, "POST", base+"/v2/parties", "", `{"partyIdHint": "alice"}`)
	if code != 200 {
		t.Fatalf("allocate: %d %v", code, body)
	}
	alice := body["partyDetails"].(map[string]any)["party"].(string)
	tid := ids[0] + ":Main:Clock"
	code, body = call(t, "POST", base+"/v2/commands/submit-and-wait-for-transaction", "", `{"commands": {"commandId": "c1", "actAs": ["`+alice+`"],
		"commands": [{"CreateCommand": {"templateId": "`+tid+`", "createArguments": {"owner": "`+alice+`"}}}]}}`)
	if code != 200 {
		t.Fatalf("create: %d %v", code, body)
	}
	ev := body["transaction"].(map[string]any)["events"].([]any)[0].(map[string]any)["CreatedEvent"].(map[string]any)
	if ev["createdAt"] != "2030-01-01T00:00:00Z" {
		t.Errorf("createdAt %v, want the static time", ev["createdAt"])
	}
	if code, body := call(t, "POST", base+"/ledgernode/v1/time", "", `{"advance": "36h"}`); code != 200 {
		t.Fatalf("advance: %d %v", code, body)
	}
	code, body = call(t, "POST", base+"/v2/commands/submit-and-wait-for-transaction-tree", "", `{"commandId": "now", "actAs": ["`+alice+`"],
		"commands": [{"ExerciseCommand": {"templateId": "`+tid+`", "contractId": "`+ev["contractId"].(string)+`", "choice": "Now", "choiceArgument": {}}}]}`)
	if code != 200 {
		t.Fatalf("Now: %d %v", code, body)
	}
	x := body["transactionTree"].(map[string]any)["eventsById"].(map[string]any)["0"].(map[string]any)["ExercisedTreeEvent"].(map[string]any)["value"].(map[string]any)
	if x["exerciseResult"] != "2030-01-02T12:00:00Z" {
		t.Errorf("getTime in the choice: %v, want the advanced static time 2030-01-02T12:00:00Z", x["exerciseResult"])
	}
}
