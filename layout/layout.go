// Package layout tells what each file of a repository is to the tools that
// read it, so that a linter checks every file by its role instead of taking
// every document for a create request:
//
//   - kustomize patches (named by a kustomization's patches,
//     patchesStrategicMerge or patchesJson6902, or scaffolded by kubebuilder
//     as patches/webhook_in_*.yaml and patches/cainjection_in_*.yaml) are
//     merged into other resources: partial documents;
//   - end-to-end tests: a chainsaw Test (chainsaw-test.yaml) names the
//     files it applies, asserts, expects to be absent, patches and deletes,
//     and the applies whose error it checks (negative tests); kuttl steps and
//     chainsaw's manifest-based tests name files NN-assert*.yaml and
//     NN-error*.yaml, and a kuttl TestStep lists its apply, assert and error
//     paths; a kuttl step file naming only objects an earlier step made or
//     asserted, and no TestStep deleted since, updates them (Update), and
//     a file below a kuttl test's
//     directory that no step reads is its scripts' input (Input);
//   - snapshots (under __snapshot__ or __snapshots__): a test's expected
//     output;
//   - Helm charts: every file under a directory holding a Chart.yaml.
//
// Scan reads the few files that assign those roles (kustomizations, chainsaw
// tests and step templates, kuttl steps) through an fs.FS; Tree.Of answers
// for any file. Every other file is a Manifest.
package layout

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// Role is what a file is to the tool that reads it.
type Role int

const (
	// Manifest: its documents are sent to the cluster as written, each one
	// a create (or update) request. Every file no other role claims.
	Manifest Role = iota
	// Patch: merged into a resource by kustomize or by a chainsaw patch
	// operation; its documents are partial.
	Patch
	// Assertion: compared with what the cluster holds (chainsaw assert and
	// error, kuttl assert and errors files) or naming what a test deletes;
	// its documents are partial.
	Assertion
	// Negative: applied by a test that checks the request's error; its
	// documents are meant to be rejected.
	Negative
	// Input: a file under the directory of a kuttl test whose steps run
	// commands, that kuttl itself does not read (kuttl applies the files
	// of the test's own directory and those its steps list) and no step
	// applies with kubectl: what the test's scripts make of it is unknown (percona's e2e tests merge such
	// files with yq into a full object).
	Input
	// Update: a kuttl step file whose every object an earlier step of the
	// test made or asserted, and no TestStep's delete list (by name, by
	// labels the test's files give it, or by kind) removed since: kuttl
	// creates a step's object, or merges it into the one that exists, so
	// such a file may hold only the fields it changes (a partial cluster
	// spec turning on an extension). A step deletes first: an object the
	// step's own files make again is created. Checked as a merge into the
	// object it names: what it writes must be valid; what it leaves out,
	// the existing object has.
	Update
)

// String is the role's name as the command prints it.
func (r Role) String() string {
	switch r {
	case Patch:
		return "patch"
	case Assertion:
		return "test assertion"
	case Negative:
		return "negative test"
	case Input:
		return "script input"
	case Update:
		return "test update"
	}
	return "manifest"
}

// Place is what the layout says of one file.
type Place struct {
	Role Role
	// By says what gives the role: the file (and line) naming the file,
	// or the naming convention; "" for a Manifest no test applies.
	By string
	// Chart is the directory of the Helm chart the file belongs to (the
	// nearest directory at or above it holding a Chart.yaml), "" outside
	// charts. A chart's templates are Go templates: a file that does not
	// parse there is a template, not a broken manifest.
	Chart string
	// Bindings is set for the files a chainsaw test reads: a string value
	// written "(...)" is a JMESPath expression the test evaluates.
	Bindings bool
}

// Tree is the layout of a directory tree, built by Scan.
type Tree struct {
	places map[string]Place
	charts map[string]bool
	// chainsaw are the directories of chainsaw tests; bound the files
	// elsewhere that a chainsaw test reads.
	chainsaw, bound map[string]bool
}

// kuttlTests holds the directories of kuttl tests and their step files.
type kuttlTests struct {
	// dirs are the directories holding a kuttl TestStep or a step file
	// named as an assertion (NN-assert*, NN-errors*): kuttl tests.
	dirs map[string]bool
	// steps are the step files (NN-name.yaml) of each directory.
	steps map[string][]string
	// scripted are the directories of kuttl tests with a TestStep that
	// runs commands: only those read files below them (Input).
	scripted map[string]bool
	// text is the text of each step file, as read read it, until
	// stepDocs parses it; docs are its parsed documents, so that each step
	// file is read and parsed once.
	text map[string][]byte
	docs map[string][]parsed
	// deletes are the objects each step file's TestStep deletes at the
	// beginning of its step.
	deletes map[string][]deleteRef
}

// Scan walks fsys and reads the files that give the others their roles.
// A file it cannot read or parse, or larger than 4 MiB, gives no role
// (reading it as a manifest reports why). Symbolic links to directories
// are not followed, as fs.WalkDir does not.
func Scan(fsys fs.FS) (*Tree, error) {
	s := scanner{fsys: fsys, t: &Tree{places: map[string]Place{}, charts: map[string]bool{}, chainsaw: map[string]bool{}, bound: map[string]bool{}},
		kuttl: kuttlTests{dirs: map[string]bool{}, steps: map[string][]string{}, scripted: map[string]bool{}, text: map[string][]byte{}, docs: map[string][]parsed{}, deletes: map[string][]deleteRef{}}}
	var roleFiles, yamlNames []string
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		base := d.Name()
		if strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml") {
			yamlNames = append(yamlNames, name)
			if inSnapshots(name) {
				s.assign(name, Assertion, "snapshot a test compares its output with (__snapshot__ directory)", false)
			}
		}
		switch {
		case base == "Chart.yaml":
			s.t.charts[path.Dir(name)] = true
		case isKustomization(base), isChainsawTest(base):
			roleFiles = append(roleFiles, name)
		case stepFile().MatchString(base):
			s.kuttl.steps[path.Dir(name)] = append(s.kuttl.steps[path.Dir(name)], name)
			s.stepByName(name, base)
			roleFiles = append(roleFiles, name) // may hold a kuttl TestStep
		case kubebuilderPatch().MatchString(base) && path.Base(path.Dir(name)) == "patches":
			s.assign(name, Patch, "kubebuilder's scaffolded patch name", false)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Explicit references come after the naming conventions, so that they
	// win (a file a test applies is a manifest whatever its name).
	for _, name := range roleFiles {
		s.read(name)
	}
	s.namedAssertions(yamlNames)
	for dir := range s.kuttl.dirs {
		if !s.t.chainsaw[dir] {
			s.stepUpdates(dir)
		}
	}
	s.testInputs(yamlNames)
	return s.t, nil
}

// namedAssertions gives the files of a chainsaw test's directory that no
// operation names, and whose names say they are assertions
// (exception-assert.yaml, assert-ready.yaml, errors.yaml), that role: a
// chainsaw test reads only the files it names, and those were written for
// an assert or an error operation.
func (s *scanner) namedAssertions(names []string) {
	for _, name := range names {
		if _, has := s.t.places[name]; has || !s.t.chainsaw[path.Dir(name)] {
			continue
		}
		base := strings.ToLower(path.Base(name))
		if strings.Contains(base, "assert") || strings.HasPrefix(base, "error") || strings.Contains(base, "-error") {
			s.assign(name, Assertion, "file name in the chainsaw test "+path.Join(path.Dir(name), "chainsaw-test.yaml"), false)
		}
	}
}

// Of returns the place of the file name, a slash-separated path relative
// to the root of the scanned fs.FS ("config/crd/patches/x.yaml").
func (t *Tree) Of(name string) Place {
	name = path.Clean(name)
	p := t.places[name]
	p.Bindings = t.bound[name]
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		if p.Chart == "" && t.charts[dir] {
			p.Chart = dir
		}
		if t.chainsaw[dir] {
			p.Bindings = true
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	return p
}

var (
	// stepFile is the name of a test step file of kuttl and of chainsaw's
	// manifest-based tests: a step index, a dash, a name.
	stepFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+-[^.]+\.ya?ml$`) })
	// kubebuilderPatch are the CRD patches kubebuilder scaffolds.
	kubebuilderPatch = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(webhook|cainjection)_in_.+\.ya?ml$`) })
)

func isKustomization(base string) bool {
	return base == "kustomization.yaml" || base == "kustomization.yml" || base == "Kustomization"
}

func isChainsawTest(base string) bool {
	return base == "chainsaw-test.yaml" || base == "chainsaw-test.yml"
}

// scanner builds a Tree.
type scanner struct {
	fsys fs.FS
	t    *Tree
	// explicit are the files a test or kustomization names, whose role no
	// naming convention changes.
	explicit map[string]bool
	kuttl    kuttlTests
}

// assign gives file its role. A role named explicitly overrides one that
// comes from a name; among explicit roles, being applied (Manifest) wins,
// then Negative, Patch and Assertion: a file one step applies and another
// asserts is still a create request.
func (s *scanner) assign(file string, r Role, by string, explicit bool) {
	file = path.Clean(file)
	old, had := s.t.places[file]
	if s.explicit == nil {
		s.explicit = map[string]bool{}
	}
	switch {
	case !had, explicit && !s.explicit[file]:
	case explicit == s.explicit[file] && rank(r) < rank(old.Role):
	default:
		return
	}
	s.t.places[file] = Place{Role: r, By: by}
	if explicit {
		s.explicit[file] = true
	}
}

func rank(r Role) int {
	switch r {
	case Manifest:
		return 0
	case Negative:
		return 1
	case Patch:
		return 2
	}
	return 3
}

// stepByName gives a test step file the role its name says: NN-assert*
// and NN-error* are assertions (kuttl reads NN-errors*, chainsaw NN-error
// and NN-errors, as files of objects that must not exist).
func (s *scanner) stepByName(name, base string) {
	_, rest, _ := strings.Cut(base, "-")
	if strings.HasPrefix(strings.ToLower(rest), "assert") || errorStep(name) {
		s.assign(name, Assertion, "test step file name (kuttl, chainsaw)", false)
		s.kuttl.dirs[path.Dir(name)] = true
	}
}

// maxRoleFile is the size of the largest file Scan reads for roles: a
// kustomization, a test or a test step is small; a larger file (a hostile
// one, or a bundle named like a step) gives no role.
const maxRoleFile = 4 << 20

// readSmall reads a file of at most maxRoleFile bytes.
func (s *scanner) readSmall(name string) ([]byte, bool) {
	if st, err := fs.Stat(s.fsys, name); err != nil || st.Size() > maxRoleFile {
		return nil, false
	}
	data, err := fs.ReadFile(s.fsys, name)
	return data, err == nil && len(data) <= maxRoleFile
}

// read reads one file that may give roles.
func (s *scanner) read(name string) {
	data, ok := s.readSmall(name)
	if !ok {
		return
	}
	base := path.Base(name)
	docs := func() []parsed { return parseDocuments(data) }
	if stepFile().MatchString(base) {
		s.kuttl.text[name] = data
		if !bytes.Contains(data, []byte("TestStep")) {
			return // parsed, if a kuttl test's, by stepDocs
		}
		docs = func() []parsed { return s.stepDocs(name) }
	}
	if isChainsawTest(base) {
		s.t.chainsaw[path.Dir(name)] = true
	}
	for _, d := range docs() {
		obj := d.obj
		at := fmt.Sprintf("%s:%d", name, d.line)
		switch {
		case isKustomization(base) || obj["kind"] == "Kustomization" && strings.HasPrefix(str(obj["apiVersion"]), "kustomize.config.k8s.io/"):
			s.kustomization(path.Dir(name), at, obj)
		case obj["kind"] == "TestStep" && strings.HasPrefix(str(obj["apiVersion"]), "kuttl.dev/"):
			s.kuttlStep(name, at, obj)
		case strings.HasPrefix(str(obj["apiVersion"]), "chainsaw.kyverno.io/"):
			s.chainsaw(path.Dir(name), at, obj, 0)
		}
	}
}

// parsed is a document of a YAML stream that parses to a mapping, with
// the line it starts on.
type parsed struct {
	obj  map[string]any
	line int
}

// parseDocuments parses the documents of a YAML stream, leaving out those
// that do not parse to a mapping.
func parseDocuments(data []byte) []parsed {
	var out []parsed
	for _, d := range splitDocuments(data) {
		var obj map[string]any
		if yaml.Unmarshal(d.text, &obj) == nil && obj != nil {
			out = append(out, parsed{obj, d.line})
		}
	}
	return out
}

// stepDocs are the parsed documents of the step file name, parsed on
// first use (by read for a file holding a TestStep, by stepObjects for
// the others of a kuttl test); nil when read could not read it.
func (s *scanner) stepDocs(name string) []parsed {
	if docs, ok := s.kuttl.docs[name]; ok {
		return docs
	}
	docs := parseDocuments(s.kuttl.text[name])
	s.kuttl.docs[name] = docs
	delete(s.kuttl.text, name)
	return docs
}

// kustomization gives the patches a kustomization names their role.
func (s *scanner) kustomization(dir, at string, k map[string]any) {
	for _, key := range []string{"patches", "patchesStrategicMerge", "patchesJson6902"} {
		items, _ := k[key].([]any)
		for _, it := range items {
			p := str(it) // patchesStrategicMerge: a path (or an inline patch)
			if m, ok := it.(map[string]any); ok {
				p = str(m["path"])
			}
			if p != "" && !strings.Contains(p, "\n") {
				s.assign(path.Join(dir, p), Patch, "kustomize patch named in "+at, true)
			}
		}
	}
}

// kuttlStep gives the files a kuttl TestStep of the step file file
// lists, and those its commands apply with kubectl, their roles, and
// records the objects it deletes.
func (s *scanner) kuttlStep(file, at string, step map[string]any) {
	dir := path.Dir(file)
	s.kuttl.dirs[dir] = true
	s.kuttl.deletes[file] = append(s.kuttl.deletes[file], deleteRefs(step["delete"])...)
	for key, r := range map[string]Role{"apply": Manifest, "assert": Assertion, "error": Assertion} {
		items, _ := step[key].([]any)
		for _, it := range items {
			s.reference(dir, str(it), r, "kuttl TestStep "+key+" in "+at)
		}
	}
	commands, _ := step["commands"].([]any)
	if len(commands) > 0 {
		s.kuttl.scripted[dir] = true
	}
	for _, c := range commands {
		m, _ := c.(map[string]any)
		for _, f := range kubectlApply().FindAllStringSubmatch(str(m["command"])+"\n"+str(m["script"]), -1) {
			if f[1] != "-" {
				s.reference(dir, f[1], Manifest, "kuttl TestStep command (kubectl) in "+at)
			}
		}
	}
}

// reference gives the files p names (a file, a directory of YAML files or
// a glob, relative to dir; URLs are left alone) the role r, and returns
// them.
func (s *scanner) reference(dir, p string, r Role, by string) (files []string) {
	if p == "" || strings.Contains(p, "://") || path.IsAbs(p) {
		return nil
	}
	p = path.Join(dir, p)
	matches, err := fs.Glob(s.fsys, p)
	if err != nil || len(matches) == 0 {
		matches = []string{p}
	}
	for _, m := range matches {
		files = append(files, s.yamlFiles(m)...)
	}
	for _, f := range files {
		s.assign(f, r, by, true)
	}
	return files
}

// yamlFiles is p when it is not a directory, else the YAML files in it.
func (s *scanner) yamlFiles(p string) []string {
	st, err := fs.Stat(s.fsys, p)
	if err != nil || !st.IsDir() {
		return []string{p}
	}
	var out []string
	entries, _ := fs.ReadDir(s.fsys, p)
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			out = append(out, path.Join(p, e.Name()))
		}
	}
	return out
}

// chainsawOps are chainsaw's operations that read files, with the role of
// those files.
var chainsawOps = map[string]Role{
	"apply":  Manifest,
	"create": Manifest,
	"update": Manifest,
	"patch":  Patch,
	"assert": Assertion,
	"error":  Assertion,
	"delete": Assertion,
}

// maxTemplateDepth bounds step templates using step templates.
const maxTemplateDepth = 4

// chainsaw walks a chainsaw document (a Test, a StepTemplate, a
// Configuration) for the operations that name files, relative to dir, the
// directory of the test. Step templates a test uses are read in turn;
// their files are relative to the test too.
func (s *scanner) chainsaw(dir, at string, v any, depth int) {
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			s.chainsaw(dir, at, it, depth)
		}
	case map[string]any:
		for k, it := range x {
			if !s.chainsawOp(dir, at, k, it, depth) {
				s.chainsaw(dir, at, it, depth)
			}
		}
	}
}

// chainsawOp reads the entry k: v of a chainsaw document when it is an
// operation naming a file or the use of a step template, and reports
// whether it was one.
func (s *scanner) chainsawOp(dir, at, k string, v any, depth int) bool {
	m, _ := v.(map[string]any)
	op, isOp := chainsawOps[k]
	switch {
	case isOp && str(m["file"]) != "":
		if op == Manifest && expectsError(m["expect"]) {
			op = Negative
		}
		for _, f := range s.reference(dir, str(m["file"]), op, "chainsaw "+k+" in "+at) {
			s.t.bound[f] = true
		}
	case (k == "script" || k == "command") && m != nil:
		s.kubectlFiles(dir, at, k, m)
	case k == "use" && str(m["template"]) != "":
		if depth < maxTemplateDepth {
			s.stepTemplate(dir, path.Join(dir, str(m["template"])), depth+1)
		}
	default:
		return false
	}
	return true
}

// kubectlApply finds the files of "kubectl apply|create -f FILE" in a
// chainsaw script's content or a command's arguments.
var kubectlApply = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`kubectl\s+(?:apply|create)\b[^\n;|&]*?\s(?:-f|--filename)[=\s]+([^\s;|&'"]+)`)
})

// kubectlFiles gives the files a chainsaw script or command applies with
// kubectl their role: a negative test when the operation checks that it
// fails, else a manifest.
func (s *scanner) kubectlFiles(dir, at, k string, m map[string]any) {
	text := str(m["content"])
	if args, ok := m["args"].([]any); ok {
		parts := []string{str(m["entrypoint"])}
		for _, a := range args {
			parts = append(parts, str(a))
		}
		text = strings.Join(parts, " ")
	}
	role := Manifest
	if expectsError([]any{map[string]any{"check": m["check"]}}) {
		role = Negative
	}
	for _, f := range kubectlApply().FindAllStringSubmatch(text, -1) {
		if f[1] == "-" {
			continue
		}
		for _, name := range s.reference(dir, f[1], role, "chainsaw "+k+" (kubectl) in "+at) {
			s.t.bound[name] = true
		}
	}
}

// stepTemplate reads a chainsaw StepTemplate a test in dir uses.
func (s *scanner) stepTemplate(dir, file string, depth int) {
	data, ok := s.readSmall(file)
	if !ok {
		return
	}
	for _, d := range splitDocuments(data) {
		var obj map[string]any
		if yaml.Unmarshal(d.text, &obj) == nil && obj != nil {
			s.chainsaw(dir, fmt.Sprintf("%s:%d", file, d.line), obj, depth)
		}
	}
}

// expectsError reports whether a chainsaw operation's expectations check
// that the request fails: a check on $error other than "($error == null):
// true" (or "($error != null): false").
func expectsError(expect any) bool {
	items, _ := expect.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		check, _ := m["check"].(map[string]any)
		for k, v := range check {
			key := strings.ReplaceAll(k, " ", "")
			if !strings.Contains(key, "$error") {
				continue
			}
			success := (strings.Contains(key, "$error==null") && v == true) || (strings.Contains(key, "$error!=null") && v == false)
			if !success {
				return true
			}
		}
	}
	return false
}

// document is one document of a YAML stream with the line it starts on.
type document struct {
	text []byte
	line int
}

// splitDocuments splits a YAML stream at its "---" lines.
func splitDocuments(data []byte) []document {
	var out []document
	start, startLine, line := 0, 1, 1
	for i := 0; i <= len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data) - i
		}
		l := data[i : i+end]
		if bytes.HasPrefix(l, []byte("---")) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r') {
			out = append(out, document{data[start:i], startLine})
			start, startLine = i+end+1, line+1
		}
		i += end + 1
		line++
	}
	if start < len(data) {
		out = append(out, document{data[start:], startLine})
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Placeholder reports whether a string value is filled in by a tool before
// it reaches the cluster, so that an error about it says nothing of the
// value the cluster will see: it holds a Go template action ("{{ ... }}",
// as Helm charts, Argo CD ApplicationSets with goTemplate and Grafana's
// alerting templates write them) or a variable in braces ("${NAME}",
// "${NAME:=default}": Flux's post-build substitution and envsubst fill
// them in; "$${NAME}" is an escaped, literal one), or, where bindings is
// set (Place.Bindings), it is a chainsaw JMESPath expression "(...)".
func Placeholder(value string, bindings bool) bool {
	if i := strings.Index(value, "{{"); i >= 0 && strings.Contains(value[i:], "}}") {
		return true
	}
	if substituted(value) {
		return true
	}
	return bindings && len(value) > 2 && value[0] == '(' && value[len(value)-1] == ')'
}

// substituted reports whether value holds a variable as Flux's post-build
// substitution and envsubst write it: "${", an optional "#" (the length
// operator), a name ([_a-zA-Z][_a-zA-Z0-9]*), then "}" or an operator
// (":=default", ":-default", "^", ",", "/old/new", ...) up to a "}". A "$"
// before the "${" escapes it: no variable, the cluster gets "${...}" as
// text.
func substituted(value string) bool {
	// A variable is closed by a "}" after its name, and names hold no
	// "}": a name starting before the last "}" is closed by it. One pass.
	last := strings.LastIndexByte(value, '}')
	for i := 0; i < last; i++ {
		j := strings.Index(value[i:last], "${")
		if j < 0 {
			return false
		}
		i += j
		if i > 0 && value[i-1] == '$' {
			i++
			continue
		}
		rest := strings.TrimPrefix(value[i+2:], "#")
		if nameLen(rest) > 0 {
			return true
		}
	}
	return false
}

// nameLen is the length of the variable name ([_a-zA-Z][_a-zA-Z0-9]*) s
// starts with, 0 for none.
func nameLen(s string) int {
	n := 0
	for n < len(s) && (s[n] == '_' || isASCIILetter(s[n]) || (n > 0 && s[n] >= '0' && s[n] <= '9')) {
		n++
	}
	return n
}

func isASCIILetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// inSnapshots reports whether a directory of name's path holds a test's
// snapshots (__snapshot__, __snapshots__: Jest, helm-unittest,
// crd-to-sample-yaml): the output a test expects, compared, not applied.
func inSnapshots(name string) bool {
	for _, part := range strings.Split(path.Dir(name), "/") {
		if part == "__snapshot__" || part == "__snapshots__" {
			return true
		}
	}
	return false
}

// testInputs gives the files under the directory of a kuttl test whose
// steps run commands, below it, that nothing gave a role the role Input:
// kuttl reads only the test's own directory and the files its steps list
// (see Input). Below a directory that only a step file's name (NN-assert,
// NN-errors) says is a test, no script reads anything: its files stay
// manifests.
func (s *scanner) testInputs(names []string) {
	for _, name := range names {
		if _, has := s.t.places[name]; has {
			continue
		}
		for dir := path.Dir(path.Dir(name)); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if s.kuttl.scripted[dir] && !s.t.chainsaw[dir] {
				s.assign(name, Input, "under the kuttl test "+dir+", read by its commands, not by kuttl", false)
				break
			}
		}
	}
}

// stepUpdates gives the step files of the kuttl test in dir whose every
// object an earlier step made or asserted, and no TestStep deleted since,
// the role Update.
func (s *scanner) stepUpdates(dir string) {
	seen := map[stepKey]stepObject{} // the objects earlier steps name
	steps := slices.Clone(s.kuttl.steps[dir])
	slices.SortStableFunc(steps, func(a, b string) int { return cmp.Compare(stepIndex(a), stepIndex(b)) })
	for len(steps) > 0 {
		// The files of one step see only the objects of earlier steps,
		// less those its TestStep deletes: kuttl deletes them first.
		n := 1
		for n < len(steps) && stepIndex(steps[n]) == stepIndex(steps[0]) {
			n++
		}
		for _, name := range steps[:n] {
			forgetDeleted(seen, s.kuttl.deletes[name])
		}
		var named []stepObject
		for _, name := range steps[:n] {
			objs := s.stepObjects(name)
			if from, ok := updating(objs, seen); ok && s.t.places[name].Role == Manifest && !s.explicit[name] {
				s.assign(name, Update, "kuttl step updating "+from, false)
			}
			if !errorStep(name) { // asserted absent: not there to update
				named = append(named, objs...)
			}
		}
		remember(seen, named)
		steps = steps[n:]
	}
}

// remember adds the objects a step named to seen: where an object was
// named first, with the labels every naming gives it.
func remember(seen map[stepKey]stepObject, named []stepObject) {
	for _, o := range named {
		if o.name == "" {
			continue
		}
		if first, has := seen[o.key()]; has {
			o.at = first.at
			o.labels = mergedLabels(first.labels, o.labels)
		}
		seen[o.key()] = o
	}
}

// forgetDeleted removes from seen the objects refs delete.
func forgetDeleted(seen map[stepKey]stepObject, refs []deleteRef) {
	for _, r := range refs {
		for k, o := range seen {
			if r.deletes(o) {
				delete(seen, k)
			}
		}
	}
}

// mergedLabels is the labels of a and b (b's value where both have a key);
// a when b adds nothing.
func mergedLabels(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// updating reports whether objs, a step file's objects, are all objects
// an earlier step named (seen), and names the first of them.
func updating(objs []stepObject, seen map[stepKey]stepObject) (from string, ok bool) {
	for _, o := range objs {
		first, has := seen[o.key()]
		if o.name == "" || !has {
			return "", false // a new object, or one found by its labels
		}
		if from == "" {
			from = o.kind + "/" + o.name + " named at " + first.at
		}
	}
	return from, len(objs) > 0
}

// errorStep reports whether the step file name is named as kuttl's
// NN-errors*.yaml: the objects it names must not exist.
func errorStep(name string) bool {
	_, rest, _ := strings.Cut(path.Base(name), "-")
	return strings.HasPrefix(strings.ToLower(rest), "error")
}

// stepIndex is the number a step file's name starts with.
func stepIndex(name string) int {
	n := 0
	for _, c := range path.Base(name) {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// stepObject is an object of a step file: its group, kind, name,
// namespace ("" for the test's) and labels, and file:line.
type stepObject struct {
	group, kind, name, namespace string
	labels                       map[string]string
	at                           string
}

// stepKey is what names an object in a test: its group, kind and name.
type stepKey struct{ group, kind, name string }

func (o stepObject) key() stepKey { return stepKey{o.group, o.kind, o.name} }

// stepObjects reads the objects of a step file, leaving out kuttl's own
// documents (TestStep, TestAssert); nil when read could not read it.
func (s *scanner) stepObjects(name string) []stepObject {
	var out []stepObject
	for _, d := range s.stepDocs(name) {
		apiVersion, kind := str(d.obj["apiVersion"]), str(d.obj["kind"])
		if kind == "" || strings.HasPrefix(apiVersion, "kuttl.dev/") {
			continue
		}
		meta, _ := d.obj["metadata"].(map[string]any)
		out = append(out, stepObject{group: apiGroup(apiVersion), kind: kind, name: str(meta["name"]), namespace: str(meta["namespace"]),
			labels: stringMap(meta["labels"]), at: fmt.Sprintf("%s:%d", name, d.line)})
	}
	return out
}

// apiGroup is the group of an apiVersion: "" for the core group ("v1").
func apiGroup(apiVersion string) string {
	group, _, grouped := strings.Cut(apiVersion, "/")
	if !grouped {
		return ""
	}
	return group
}

// stringMap is the string entries of a YAML mapping; nil for anything
// else.
func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	var out map[string]string
	for k, it := range m {
		if s, ok := it.(string); ok {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = s
		}
	}
	return out
}

// deleteRef is an item of a kuttl TestStep's delete list: the objects of
// a group and kind, in a namespace ("" for the test's), with a name, or
// else carrying labels, or else all of them (kuttl's DeleteExisting).
type deleteRef struct {
	group, kind, name, namespace string
	labels                       map[string]string
}

// deleteRefs reads a TestStep's delete list; an item without a kind
// deletes nothing that can be told.
func deleteRefs(v any) []deleteRef {
	items, _ := v.([]any)
	var out []deleteRef
	for _, it := range items {
		m, _ := it.(map[string]any)
		if str(m["kind"]) == "" {
			continue
		}
		out = append(out, deleteRef{group: apiGroup(str(m["apiVersion"])), kind: str(m["kind"]), name: str(m["name"]),
			namespace: str(m["namespace"]), labels: stringMap(m["labels"])})
	}
	return out
}

// deletes reports whether r deletes the object o as the test's files
// write it: same group, kind and namespace, and the name r gives, else the
// labels r gives among o's written labels (an object whose labels the
// cluster adds is not known to match: kept).
func (r deleteRef) deletes(o stepObject) bool {
	if r.group != o.group || r.kind != o.kind || r.namespace != o.namespace {
		return false
	}
	if r.name != "" {
		return r.name == o.name
	}
	for k, v := range r.labels {
		if l, has := o.labels[k]; !has || l != v {
			return false
		}
	}
	return true
}
