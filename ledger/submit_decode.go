package ledger

import (
	"slices"
	"sync/atomic"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
	"github.com/ledgernode/ledgernode/ledger/internal/store"
)

// ArgumentDecoder gives the arguments of a submission's commands from an
// encoding the node does not read itself — the JSON Ledger API's Daml
// JSON, say, whose records and variants only the Daml-LF types tell
// apart — decoded against the types the commands' templates and choices
// resolve to. See DecodeArguments.
type ArgumentDecoder interface {
	// DecodeArgument returns the argument field of command i
	// ("createArguments", "choiceArgument" or "contractKey"), a value of
	// type t; lookup finds the packages t refers to, and path is where the
	// argument sits in errors ("commands[0].CreateCommand.createArguments").
	// A *value.Error it returns (or wraps) is reported as Canton's command
	// preprocessor reports a value it refuses
	// (COMMAND_PREPROCESSING_FAILED and its kin).
	DecodeArgument(i int, field string, t lf.Type, lookup func(pkgID string) *lf.Package, path string) (value.Value, error)
}

// DecodeArguments makes Submit (SubmitForTransaction, Prepare) take every
// argument of the commands from d rather than from the commands' own
// argument fields, which are ignored: once the submission's fields pass
// their checks, each command's template (or interface) reference is
// resolved with the package preference on the synchronizer, then — in the
// order of the command's fields — its contract id and choice are checked
// and its arguments decoded by d with the resolved package's types. The
// interpretation uses the decoded values as they are, without typing them
// again, and a create's transaction may hold its decoded argument: d must
// not change a value once it returned it. A failure refuses the submission, unless the command is a
// duplicate: DUPLICATE_COMMAND is reported instead, as for a failed
// interpretation.
func DecodeArguments(d ArgumentDecoder) SubmitOption {
	return func(c *submitConfig) { c.decoder = d }
}

// decodeArguments sets the arguments of a checked submission's commands
// from its decoder: each command's template reference resolves in the
// synchronizer's package view (the cached one, else one read on a
// snapshot) with the submission's package preference, and its arguments
// are decoded against that package's types. The package ids are kept
// with s (typedAt), so that the interpretation does not type the values
// again when it resolves the same packages; the caller's commands stay
// as they were. When submitting, a duplicate command is refused rather
// than whatever its decoding says, as the interpretation refuses it.
func (n *Node) decodeArguments(s *submission, submitting bool) error {
	sync := s.sync
	if sync == "" {
		var err error
		if sync, err = n.submissionSynchronizer(s.c.SynchronizerID); err != nil {
			return err
		}
	}
	// The decoded commands replace the checked ones in a copy: the
	// caller's slice stays as it was.
	var resolved []resolvedEntity
	if len(s.c.Commands) == 1 {
		s.typedAt = s.oneTypedAt[:]
		s.c.Commands = append(s.oneCommand[:0], s.c.Commands...)
		resolved = s.oneResolved[:]
	} else {
		s.typedAt = make([]string, len(s.c.Commands))
		s.c.Commands = slices.Clone(s.c.Commands)
		resolved = make([]resolvedEntity, len(s.c.Commands))
	}
	convert := func(pkgs *pkgView) error {
		pref, err := pkgs.preference(s.c.PackageIDSelectionPreference)
		if err != nil {
			return err
		}
		// Without a preference list, pref is the view's own.
		ownPref := len(s.c.PackageIDSelectionPreference) == 0
		for i, c := range s.c.Commands {
			cmd, err := pkgs.decodeCommand(c, i, pref, ownPref, s.decoder, &n.decoding, &resolved[i])
			if err != nil {
				return err
			}
			s.c.Commands[i], s.typedAt[i] = cmd, resolved[i].id.PackageID
		}
		s.resolvedIn, s.resolved = pkgs, resolved
		return nil
	}
	// The package view cached between commits is current: no snapshot is
	// needed but to check a failed command for a duplicate.
	if pkgs, _ := n.views.current(sync); pkgs != nil {
		err := convert(pkgs)
		if err != nil && submitting {
			if dup := n.st.View(func(r *store.Reader) error { return n.checkDuplicate(store.ReadOnlyTx(r), s, n.now()) }); dup != nil {
				return storeErr(dup)
			}
		}
		return err
	}
	err := n.st.View(func(r *store.Reader) (err error) {
		t := store.ReadOnlyTx(r)
		if submitting {
			defer func() {
				if err != nil {
					if dup := n.checkDuplicate(t, s, n.now()); dup != nil {
						err = dup
					}
				}
			}()
		}
		pkgs, err := n.snapshotPkgView(t, sync)
		if err != nil {
			return err
		}
		return convert(pkgs)
	})
	return storeErr(err)
}

// decodeCommand resolves command i and decodes its arguments with d; it
// returns the command with its arguments, and sets r to the template (or
// interface) it resolved to, whose package they were decoded with.
// ownPref tells that pref is the view's own preference (newestVetted);
// cache keeps what the next command may need again.
func (v *pkgView) decodeCommand(c Command, i int, pref map[string]string, ownPref bool, d ArgumentDecoder, cache *decodeCache, r *resolvedEntity) (Command, error) {
	// The paths of errors are built only for one; the decoder's, one per
	// argument, are mostly precomputed (argPath).
	p := cmdPath{i: i, variant: commandVariant(c)}
	lookup := v.lookupFunc()
	arg := func(field string, t lf.Type) (value.Value, error) {
		x, err := d.DecodeArgument(i, field, t, lookup, p.argPath(field))
		if err != nil {
			return nil, damlError(err)
		}
		return x, nil
	}
	resolve := func(ref TemplateRef, interfaces bool) (resolvedEntity, error) {
		path := func() string { return p.at("templateId") }
		if !ownPref {
			return v.resolveRef(ref, path, pref, interfaces)
		}
		return cache.resolve(v, ref, path, pref, interfaces)
	}
	// chosen checks a choice of the entity and decodes its argument.
	chosen := func(r *resolvedEntity, choice string) (value.Value, error) {
		ch := choiceIn(r, choice)
		if ch == nil {
			return nil, noChoice(r, choice, p.String())
		}
		return arg("choiceArgument", ch.ArgType)
	}
	switch x := derefCommand(c).(type) {
	case CreateCommand:
		var err error
		if *r, err = resolve(x.Template, false); err != nil {
			return nil, err
		}
		if x.Arguments, err = arg("createArguments", cache.argType(r.id)); err != nil {
			return nil, err
		}
		return x, nil
	case ExerciseCommand:
		var err error
		if *r, err = resolve(x.Template, true); err != nil {
			return nil, err
		}
		if _, err := commandContractIDAt(string(x.ContractID), func() string { return p.at("contractId") }); err != nil {
			return nil, err
		}
		if x.Argument, err = chosen(r, x.Choice); err != nil {
			return nil, err
		}
		return x, nil
	case CreateAndExerciseCommand:
		var err error
		if *r, err = resolve(x.Template, false); err != nil {
			return nil, err
		}
		if x.Arguments, err = arg("createArguments", cache.argType(r.id)); err != nil {
			return nil, err
		}
		if x.Argument, err = chosen(r, x.Choice); err != nil {
			return nil, err
		}
		return x, nil
	case ExerciseByKeyCommand:
		var err error
		if *r, err = resolve(x.Template, false); err != nil {
			return nil, err
		}
		if r.tmpl.Key == nil {
			return nil, pathErr(apierr.CommandPreprocessingFailed, p.at("templateId"), "template %s has no contract key", r.id)
		}
		if x.Key, err = arg("contractKey", r.tmpl.Key.Type); err != nil {
			return nil, err
		}
		if x.Argument, err = chosen(r, x.Choice); err != nil {
			return nil, err
		}
		return x, nil
	}
	return nil, pathErr(apierr.InvalidArgument, p.String(), "the command is empty")
}

// argPaths are cmdPath.at of the argument fields of the first commands
// of each variant ("commands[0].CreateCommand.createArguments"), by
// command, variant and field (argIndex): indexed, not hashed, as every
// argument of a decoded submission looks its path up.
var argPaths = func() (out [8][4][3]string) {
	for i := range out {
		for _, variant := range []string{"CreateCommand", "ExerciseCommand", "CreateAndExerciseCommand", "ExerciseByKeyCommand"} {
			for _, field := range []string{"createArguments", "choiceArgument", "contractKey"} {
				v, f := argIndex(variant, field)
				out[i][v][f] = cmdPath{i: i, variant: variant}.at(field)
			}
		}
	}
	return out
}()

// argIndex places a command variant and an argument field in argPaths
// (-1: not there).
func argIndex(variant, field string) (v, f int) {
	switch variant {
	case "CreateCommand":
		v = 0
	case "ExerciseCommand":
		v = 1
	case "CreateAndExerciseCommand":
		v = 2
	case "ExerciseByKeyCommand":
		v = 3
	default:
		v = -1
	}
	switch field {
	case "createArguments":
		f = 0
	case "choiceArgument":
		f = 1
	case "contractKey":
		f = 2
	default:
		f = -1
	}
	return v, f
}

// argPath is p.at(field) for an argument field, from argPaths when it
// holds it.
func (p cmdPath) argPath(field string) string {
	if p.i >= 0 && p.i < len(argPaths) {
		if v, f := argIndex(p.variant, field); v >= 0 && f >= 0 {
			return argPaths[p.i][v][f]
		}
	}
	return p.at(field)
}

// derefCommand returns the command a pointer command points to.
func derefCommand(c Command) Command {
	switch x := c.(type) {
	case *CreateCommand:
		return *x
	case *ExerciseCommand:
		return *x
	case *CreateAndExerciseCommand:
		return *x
	case *ExerciseByKeyCommand:
		return *x
	}
	return c
}

// decodeCache keeps, from one submission to the next, what decoding its
// commands made that the next one most likely needs again: the last
// template reference resolved in a package view with the view's own
// preference, and the type of the last template argument decoded. A view
// never changes once made, nor do types, so submissions share them.
type decodeCache struct {
	ref  atomic.Pointer[resolvedRef]
	argT atomic.Pointer[lf.TCon]
}

// resolvedRef is a template (or interface) reference resolved in view.
type resolvedRef struct {
	view       *pkgView
	ref        TemplateRef
	interfaces bool
	r          resolvedEntity
}

// resolve is v.resolveRef(ref, path, pref, interfaces) for pref the
// view's own preference, which resolves a reference alike every time.
func (c *decodeCache) resolve(v *pkgView, ref TemplateRef, path func() string, pref map[string]string, interfaces bool) (resolvedEntity, error) {
	if l := c.ref.Load(); l != nil && l.view == v && l.ref == ref && l.interfaces == interfaces {
		return l.r, nil
	}
	r, err := v.resolveRef(ref, path, pref, interfaces)
	if err == nil {
		c.ref.Store(&resolvedRef{view: v, ref: ref, interfaces: interfaces, r: r})
	}
	return r, err
}

// argType returns the type of the template id's argument,
// value.TypeOf(id.PackageID, id.Module, id.Name).
func (c *decodeCache) argType(id lf.TypeConID) lf.Type {
	if t := c.argT.Load(); t != nil && t.ID == id {
		return t
	}
	t := &lf.TCon{ID: id}
	c.argT.Store(t)
	return t
}
