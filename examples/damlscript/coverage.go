package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ledgernode/ledgernode/daml/engine"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/script"
	"github.com/ledgernode/ledgernode/daml/tx"
)

// coverage is what scripts created and exercised: the templates of the
// Create nodes and the (choice, template) pairs of the Exercise nodes of
// the transactions their submissions committed, rolled-back nodes
// included (the IDE ledger keeps every node of a committed transaction).
// The template of an Exercise node is the contract's, also for an
// interface choice, as in the script service's nodes `daml test` reads.
type coverage struct {
	created   map[lf.TypeConID]bool
	exercised map[choiceOn]bool
}

// choiceOn is a choice exercised on a contract of a template.
type choiceOn struct {
	choice   string
	template lf.TypeConID
}

func newCoverage() *coverage {
	return &coverage{created: map[lf.TypeConID]bool{}, exercised: map[choiceOn]bool{}}
}

// add records the nodes of a committed transaction, from its roots.
func (c *coverage) add(t *tx.Transaction) {
	var walk func(ids []tx.NodeID)
	walk = func(ids []tx.NodeID) {
		for _, id := range ids {
			if int(id) < 0 || int(id) >= len(t.Nodes) {
				continue
			}
			n := t.Nodes[id]
			switch n := n.(type) {
			case *tx.Create:
				c.created[n.TemplateID] = true
			case *tx.Exercise:
				c.exercised[choiceOn{n.Choice, n.TemplateID}] = true
			}
			walk(tx.Children(n))
		}
	}
	walk(t.Roots)
}

// merge adds what o recorded.
func (c *coverage) merge(o *coverage) {
	for k := range o.created {
		c.created[k] = true
	}
	for k := range o.exercised {
		c.exercised[k] = true
	}
}

// recordingLedger is a script.Ledger that records the transactions its
// submissions commit. It forwards ContractWithBlob (script.ContractBlobs)
// and ContractsOfTemplate (script.TemplateContracts) when the ledger it
// wraps has them and otherwise answers as the runner does without them,
// so that wrapping changes nothing.
type recordingLedger struct {
	script.Ledger
	mu  sync.Mutex
	cov *coverage
}

// Submit submits and records the committed transaction.
func (l *recordingLedger) Submit(ctx context.Context, s *script.Submission) (*tx.Transaction, error) {
	t, err := l.Ledger.Submit(ctx, s)
	if err == nil && t != nil {
		l.mu.Lock()
		l.cov.add(t)
		l.mu.Unlock()
	}
	return t, err
}

// ContractWithBlob is the wrapped ledger's, or ContractByID without a
// blob.
func (l *recordingLedger) ContractWithBlob(ctx context.Context, parties []string, cid string) (*engine.Contract, []byte, error) {
	if cb, ok := l.Ledger.(script.ContractBlobs); ok {
		return cb.ContractWithBlob(ctx, parties, cid)
	}
	c, err := l.Ledger.ContractByID(ctx, parties, cid)
	return c, nil, err
}

// A recordingLedger keeps the fast paths of the ledger it wraps.
var (
	_ script.ContractBlobs     = (*recordingLedger)(nil)
	_ script.TemplateContracts = (*recordingLedger)(nil)
)

// ContractsOfTemplate is the wrapped ledger's (script.TemplateContracts),
// or Contracts matching exactly tpl: the same answer either way.
func (l *recordingLedger) ContractsOfTemplate(ctx context.Context, parties []string, tpl lf.TypeConID) ([]engine.Contract, error) {
	if tl, ok := l.Ledger.(script.TemplateContracts); ok {
		return tl.ContractsOfTemplate(ctx, parties, tpl)
	}
	return l.Ledger.Contracts(ctx, parties, func(t lf.TypeConID) bool { return t == tpl })
}

// The coverage report is damlc's (`daml test --show-coverage`,
// printTestCoverage of DA.Cli.Damlc.Test.TestResults in the daml
// repository): the same lines, counts and percentages, and with lists
// the definitions never created or exercised, sorted as damlc's maps
// are. The DAR's main package is "internal", its other packages
// "external"; damlscript runs only the main package's scripts, so
// everything is "created in internal tests" and nothing "in external
// tests" (`daml test --all` also runs the scripts of the dependencies).
// Where damlc identifies the interface of an interface instance by the
// interface's name in the template's module and package (so that the
// choices of an interface defined elsewhere are not counted), this
// report uses the interface's own id.

// defID is a template or interface as damlc identifies it: Module:Name,
// with the package, local (the DAR's main package) first.
type defID struct {
	id    lf.TypeConID
	local bool
	pkg   string // the package's name, printed before an external id
}

func (d defID) qualified() string { return d.id.Module + ":" + d.id.Name }

// String renders the id as damlc prints it: Module:Name, prefixed with
// the package name when external.
func (d defID) String() string {
	if d.local {
		return d.qualified()
	}
	return d.pkg + ":" + d.qualified()
}

func compareDefID(a, b defID) int {
	if c := strings.Compare(a.qualified(), b.qualified()); c != 0 {
		return c
	}
	if a.local != b.local {
		if a.local {
			return -1
		}
		return 1
	}
	return strings.Compare(a.id.PackageID, b.id.PackageID)
}

// defChoice is a choice of a template (or of an interface instance,
// where tpl is the instance's template and iface its interface).
type defChoice struct {
	choice string
	tpl    defID
	iface  *defID
}

func compareDefChoice(a, b defChoice) int {
	if c := strings.Compare(a.choice, b.choice); c != 0 {
		return c
	}
	if c := compareDefID(a.tpl, b.tpl); c != 0 {
		return c
	}
	if a.iface == nil || b.iface == nil {
		return 0
	}
	return compareDefID(*a.iface, *b.iface)
}

func (c defChoice) String() string { return c.tpl.String() + ":" + c.choice }

// defined are the definitions of the DAR's packages that the report
// counts.
type defined struct {
	templates       []defID
	templateChoices []defChoice
	// instances are the interface instances: the template and the
	// interface; instanceChoices the choices of their interfaces
	// (Archive excepted, as damlc does).
	instances       [][2]defID
	instanceChoices []defChoice
}

func definitions(dar *lf.DAR) defined {
	var d defined
	idOf := func(p *lf.Package, module, name string) defID {
		return defID{id: lf.TypeConID{PackageID: p.ID, Module: module, Name: name}, local: p.ID == dar.Main.ID, pkg: p.Name}
	}
	for _, p := range dar.Packages {
		for _, m := range p.Modules {
			for _, t := range m.Templates {
				tid := idOf(p, m.Name, t.Name)
				d.templates = append(d.templates, tid)
				for _, ch := range t.Choices {
					d.templateChoices = append(d.templateChoices, defChoice{choice: ch.Name, tpl: tid})
				}
				for _, ifc := range t.Implements {
					ip := dar.Package(ifc.PackageID)
					var iid defID
					if ip != nil {
						iid = idOf(ip, ifc.Module, ifc.Name)
					} else {
						iid = defID{id: ifc, pkg: ifc.PackageID}
					}
					d.instances = append(d.instances, [2]defID{tid, iid})
					if ip == nil {
						continue
					}
					def := ip.Interface(ifc.Module, ifc.Name)
					if def == nil {
						continue
					}
					for _, ch := range def.Choices {
						if ch.Name != "Archive" {
							d.instanceChoices = append(d.instanceChoices, defChoice{choice: ch.Name, tpl: tid, iface: &iid})
						}
					}
				}
			}
		}
	}
	slices.SortFunc(d.templates, compareDefID)
	slices.SortFunc(d.templateChoices, compareDefChoice)
	slices.SortFunc(d.instanceChoices, compareDefChoice)
	return d
}

// choices returns the choices of defs that are the package's own (local)
// or external ones, how many of them were exercised, and the names of
// those never exercised.
func (cov *coverage) choices(defs []defChoice, local bool) (chosen []defChoice, exercised int, never []string) {
	for _, c := range defs {
		if c.tpl.local != local {
			continue
		}
		chosen = append(chosen, c)
		if cov.exercised[choiceOn{c.choice, c.tpl.id}] {
			exercised++
		} else {
			never = append(never, c.String())
		}
	}
	return chosen, exercised, never
}

// writeCoverage writes the coverage report of what cov recorded against
// the definitions of the DAR's packages; lists adds the definitions never
// created or exercised (damlc's --show-coverage).
func writeCoverage(w io.Writer, dar *lf.DAR, cov *coverage, lists bool) {
	d := definitions(dar)
	var out []string
	line := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	list := func(variety string, names []string) {
		if !lists {
			return
		}
		line("  %s: %d", variety, len(names))
		for _, n := range names {
			out = append(out, "    "+n)
		}
	}
	split := func(local bool) (templates []defID, created, never []string, choices []defChoice, exercised int, neverEx []string,
		instances [][2]defID, iChoices []defChoice, iExercised int, iNever []string) {
		for _, t := range d.templates {
			if t.local != local {
				continue
			}
			templates = append(templates, t)
			if cov.created[t.id] {
				created = append(created, t.String())
			} else {
				never = append(never, t.String())
			}
		}
		choices, exercised, neverEx = cov.choices(d.templateChoices, local)
		for _, in := range d.instances {
			if in[0].local == local {
				instances = append(instances, in)
			}
		}
		iChoices, iExercised, iNever = cov.choices(d.instanceChoices, local)
		return
	}

	templates, created, never, choices, exercised, neverEx, instances, iChoices, iExercised, iNever := split(true)
	line("Modules internal to this package:")
	line("- Internal templates")
	line("  %d defined", len(templates))
	line("  %d (%s%%) created", len(created), pct(len(created), len(templates)))
	list("internal templates never created", never)
	line("- Internal template choices")
	line("  %d defined", len(choices))
	line("  %d (%s%%) exercised", exercised, pct(exercised, len(choices)))
	list("internal template choices never exercised", neverEx)
	internalIfaces := 0
	for _, in := range instances {
		if in[1].local {
			internalIfaces++
		}
	}
	line("- Internal interface implementations")
	line("  %d defined", len(instances))
	line("    %d internal interfaces", internalIfaces)
	line("    %d external interfaces", len(instances)-internalIfaces)
	line("- Internal interface choices")
	line("  %d defined", len(iChoices))
	line("  %d (%s%%) exercised", iExercised, pct(iExercised, len(iChoices)))
	list("internal interface choices never exercised", iNever)

	templates, created, never, choices, exercised, neverEx, instances, iChoices, iExercised, iNever = split(false)
	line("Modules external to this package:")
	line("- External templates")
	line("  %d defined", len(templates))
	line("  %d (%s%%) created in any tests", len(created), pct(len(created), len(templates)))
	line("  %d (%s%%) created in internal tests", len(created), pct(len(created), len(templates)))
	line("  %d (%s%%) created in external tests", 0, pct(0, len(templates)))
	list("external templates never created", never)
	line("- External template choices")
	line("  %d defined", len(choices))
	line("  %d (%s%%) exercised in any tests", exercised, pct(exercised, len(choices)))
	line("  %d (%s%%) exercised in internal tests", exercised, pct(exercised, len(choices)))
	line("  %d (%s%%) exercised in external tests", 0, pct(0, len(choices)))
	list("external template choices never exercised", neverEx)
	line("- External interface implementations")
	line("  %d defined", len(instances))
	line("- External interface choices")
	line("  %d defined", len(iChoices))
	line("  %d (%s%%) exercised in any tests", iExercised, pct(iExercised, len(iChoices)))
	line("  %d (%s%%) exercised in internal tests", iExercised, pct(iExercised, len(iChoices)))
	line("  %d (%s%%) exercised in external tests", 0, pct(0, len(iChoices)))
	list("external interface choices never exercised", iNever)
	// damlc prints the lines with unlines then putStrLn: a blank line
	// ends the report.
	fmt.Fprint(w, strings.Join(out, "\n")+"\n\n")
}

// pct is damlc's percentage, printf "%5.1f": 100·n/d within [0, 100],
// 100 when d is 0.
func pct(n, d int) string {
	p := 100.0
	if d != 0 {
		p = max(0, min(100, 100*float64(n)/float64(d)))
	}
	return fmt.Sprintf("%5s", fixed1(p))
}

// fixed1 renders x ≥ 0 with one decimal as Haskell's printf "%.1f"
// (showFFloat) does: the shortest decimal digits of x rounded to one
// decimal, a tie to even. Go's %.1f rounds the binary value instead
// (6.35 is 6.4 in Haskell and 6.3 in Go).
func fixed1(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.Atoi(intPart)
	tenths := n * 10
	if frac == "" {
		frac = "0"
	}
	tenths += int(frac[0] - '0')
	if len(frac) > 1 {
		next, rest := frac[1], strings.TrimRight(frac[2:], "0")
		tie := next == '5' && rest == ""
		if next > '5' || next == '5' && (!tie || (frac[0]-'0')%2 == 1) {
			tenths++
		}
	}
	return strconv.Itoa(tenths/10) + "." + strconv.Itoa(tenths%10)
}
