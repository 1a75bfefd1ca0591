package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// The Kubernetes release whose apiserver behaviour crdschema reproduces,
// and the apiextensions-apiserver module version it is compared with.
const (
	kubernetesVersion    = "1.37"
	apiextensionsVersion = "k8s.io/apiextensions-apiserver v0.37.2"
)

// modulePath is the module the command belongs to.
const modulePath = "github.com/crdschema/crdschema"

const usage = `crdschema does what the Kubernetes apiserver does with the OpenAPI v3
schemas of CustomResourceDefinitions, without an apiserver.

usage:
  crdschema check [--skip-non-crds] [--old PATH]... [--lint-fail] [-o text|json|github|junit] PATH...
  crdschema prune|default [--crd PATH... | --schema PATH] [--skip-unknown-kinds] [-o yaml|json|text|github|junit] OBJECTS...
  crdschema apply [--crd PATH... | --schema PATH] [--strict] [--skip-unknown-kinds] [-o yaml|json|text|github|junit] OBJECTS...
  crdschema apply --crd PATH... --old PATH... [--subresource status] [-o ...] OBJECTS...
  crdschema convert --crd PATH... --to [GROUP/]VERSION [-o yaml|json] OBJECTS...
  crdschema convert --review PATH... [-o json]
  crdschema openapi [--crd PATH...] [-o json|yaml] [PATH...]
  crdschema columns --crd PATH... [--now RFC3339] [-o text|wide|json] OBJECTS...
  crdschema scale --crd PATH... [-o yaml|json] OBJECTS...
  crdschema sample --crd PATH [--version V] [-n N] [--seed S] [--round-trip] [-o yaml|json]
  crdschema jsonschema --crd PATH... --out DIR
  crdschema explain --crd PATH... TYPE[.FIELD.PATH] [--api-version GROUP/VERSION] [--recursive] [-o plaintext|json]
  crdschema revision --old PATH... --crd PATH... [--converter URL] [--fail-on CLASS] [-o text|json|markdown|github] [OBJECTS...]
  crdschema migrate --crd PATH... [--old PATH...] [-o text|json] OBJECTS...
  crdschema help [VERB]
  crdschema version

PATH is a file, a directory (walked for *.yaml, *.yml, *.json) or - for stdin.
Exit status: 0 clean, 1 errors found, 2 unreadable input or bad arguments.
Run 'crdschema help VERB' for a verb's flags and examples. The -o json output
is a stable contract: docs/cli.md in the module.
`

// verbHelp is the full help of each verb.
var verbHelp = map[string]string{
	"revision": `usage: crdschema revision --old PATH... --crd PATH... [--converter URL] [--fail-on CLASS] [-o text|json|markdown|github] [OBJECTS...]

Says what applying a new revision of CRDs (--crd) over the revision a cluster
has (--old) does. CRDs are paired by metadata.name. For each pair: the
apiserver's answer to the update of the CRD (rejected, warnings), the old
revision's own errors (the apiserver stores only valid CRDs), the classified
changes between the two (rejected, data-loss, breaking, ratcheted,
default-changed, unchecked or safe, each computed with probe objects), and the
replay of every object of that CRD among OBJECTS: a dump (objects with uid,
resourceVersion or creationTimestamp) is taken as stored under the old
revision; a manifest is created under the old revision first, as a cluster
would store it. Then:
  - data loss: the fields a read at each version the new revision serves
    drops or changes (the old revision's read keeps them), and those the next
    write loses once it stores the object as the new revision stores it;
  - update: the next write of the unchanged object (with ratcheting) fails;
  - create: a fresh 'kubectl apply' of the object fails;
each compared with the same under the old revision (new failures count).
What needs a conversion webhook the run was not given is "not checked",
never safe. Objects of kinds neither revision defines are skipped and
counted. The objects are streamed: memory holds one at a time.

Flags:
  --old PATH       the revision the cluster has: CRD files or directories (repeatable)
  --crd PATH       the new revision: CRD files or directories (repeatable)
  --converter URL  the conversion webhook of the CRDs with strategy Webhook (a
                   ConversionReview v1 endpoint); without it, what needs the
                   webhook is not checked
  --fail-on CLASS  also fail on changes of CLASS: ratcheted, default-changed
                   (repeatable, or comma-separated)
  -o FORMAT        text (default); json: one JSON line per object, then per CRD
                   (docs/cli.md); markdown: a pull-request comment (a change found
                   the same in several versions on one line); github: workflow
                   annotations at the changed field's line
  --exclude GLOB   leave matching files out of the walk of an OBJECTS directory

Exit status: 0 safe, or passes (only ratcheted or default-changed changes, not
failed by --fail-on); 1 an update rejected, a change classed rejected, data-loss
or breaking (or a --fail-on class), anything not checked, or an object that
loses data or newly fails its update or create; 2 bad input (different CRD
names, unreadable files, an object that cannot be stored under the old
revision) or bad arguments: the verdict then says incomplete.

Examples:
  crdschema revision --old <(git show main:config/crd/widgets.yaml) --crd config/crd/widgets.yaml examples/
  kubectl get widgets -A -o yaml > dump.yaml
  crdschema revision --old stored-crds/ --crd config/crd/ -o markdown dump.yaml
`,
	"migrate": `usage: crdschema migrate --crd PATH... [--old PATH...] [-o text|json] OBJECTS...

The storage-version migration of the Kubernetes guide "Versions in
CustomResourceDefinitions" (upgrade existing objects to a new stored version),
offline: what rewriting every stored object at the CRD's storage version does
(kube-storage-version-migrator's no-op update of each: read at the preferred
version, written back unchanged, with ratcheting), per object:
  migrated     stored at the storage version, nothing lost;
  loses data   stored at the storage version without fields a read of the
               object had before (the storage version's schema does not
               declare them), or with other values;
  fails        the update is rejected: the object stays stored as it is;
  not checked  a conversion needs the CRD's webhook (strategy Webhook), which
               the command does not call;
  cannot be migrated
               the CRD cannot have stored it (another kind, a version it
               does not define, a conversion that fails);
then per CRD the guide's steps in order, with the status.storedVersions patch
that is safe once every object is stored at the storage version. A loss is
never passed over: the run says so and exits 1.

OBJECTS are the objects as the cluster stores them, at the version each
apiVersion names (etcdctl get --prefix /registry/GROUP/PLURAL
--print-value-only, or objects kept at old versions). With --old, the
revision the cluster has before the CRD (the storage switch is part of an
upgrade): the CRD must be an update of it the apiserver accepts, and OBJECTS
are taken as stored under it, as 'revision' takes them, so a dump of the
cluster before the upgrade (kubectl get PLURAL.GROUP -A -o yaml) will do.
Objects of kinds no CRD given defines are skipped and counted. The objects are
streamed: memory holds one at a time.

Flags:
  --crd PATH     the CRDs whose storage version objects move to: files or
                 directories (repeatable)
  --old PATH     the revisions the cluster has before them, paired by
                 metadata.name (repeatable)
  -o FORMAT      text (default); json: one JSON line per object (with the object
                 as stored after the rewrite), then one per CRD with the steps
                 and the patch (docs/cli.md)
  --exclude GLOB leave matching files out of the walk of an OBJECTS directory

Exit status: 0 every object migrates with nothing lost; 1 a CRD (or its update)
rejected, an object that loses data or fails; 2 bad input (unreadable files,
no object, an object the CRD cannot have stored, an object not checked) or bad
arguments.

Examples:
  etcdctl get --prefix /registry/example.com/widgets --print-value-only > stored.json
  crdschema migrate --crd config/crd/widgets.yaml stored.json
  kubectl get widgets.example.com -A -o yaml > dump.yaml
  crdschema migrate --old <(kubectl get crd widgets.example.com -o yaml) --crd config/crd/widgets.yaml dump.yaml
`,
	"columns": `usage: crdschema columns --crd PATH... [--now RFC3339] [-o text|wide|json] OBJECTS...

Prints the table 'kubectl get' shows for each stored object (an object as
stored in etcd, at the version its apiVersion names, which must be served),
after the apiserver's storage read path: the Name column, then the version's
additionalPrinterColumns (or the default Age column). A column takes the first
result of its JSONPath; an unparsable JSONPath drops that column and every
later one, as the apiserver does.

Flags:
  --crd PATH      a CRD file or directory (repeatable)
  --now RFC3339   the server's clock for date columns (default: the current time)
  -o FORMAT       text (default): kubectl's table; wide: with the columns of priority > 0;
                  json: one JSON line per object (docs/cli.md)

Examples:
  crdschema columns --crd crds/ examples/
  crdschema columns --now 2026-11-25T00:00:00Z -o json --crd crontab.yaml my-crontab.yaml
`,
	"scale": `usage: crdschema scale --crd PATH... [-o yaml|json] OBJECTS...

Prints the autoscaling/v1 Scale that GET .../NAME/scale returns for each stored
object, at its own version, after the apiserver's storage read path. The scale
paths are split at dots (no JSONPath); replicas are truncated to int32.

Flags:
  --crd PATH  a CRD file or directory (repeatable)
  -o FORMAT   yaml (default): the Scale objects as a YAML stream; json: one JSON line per object (docs/cli.md)

Examples:
  crdschema scale --crd crds/ examples/
`,
	"jsonschema": `usage: crdschema jsonschema --crd PATH... --out DIR

Writes, for every version of every CustomResourceDefinition, a JSON Schema
(draft-04) of the objects the apiserver accepts, in the CRDs-catalog layout
kubeconform and yaml-language-server's CRD store (yaml.kubernetesCRDStore.url)
read: DIR/GROUP/KIND_VERSION.json (KIND in lower case), and
DIR/GROUP/KIND_VERSION-strict.json, which also rejects the unknown fields
kubectl's --validate=strict rejects (for OpenShift groups also where the
editor looks for them: DIR/openshift/v4.15-strict/KIND_GROUP_VERSION.json).
Patterns are written in a form Go's regexp and ECMA-262 editors read alike;
a version the CRD does not serve gets a schema that refuses every object and
says why. It prints the files written (mode 0666 less the umask). A CRD the
apiserver would reject is reported and nothing is written (exit 1); an
unreadable input, inputs without a CRD or an unwritable DIR exit 2. CRD
PATHs may be given with --crd or as plain arguments.

Flags:
  --crd PATH  a CRD file or directory (repeatable)
  --out DIR   the directory to write to (created when missing)

Examples:
  crdschema jsonschema --crd config/crd/bases --out schemas
  kubeconform \
    -schema-location 'schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}{{.StrictSuffix}}.json' \
    -schema-location default -strict manifests/
`,
	"explain": `usage: crdschema explain --crd PATH... TYPE[.FIELD.PATH] [--api-version GROUP/VERSION] [--recursive] [-o plaintext|json]

Prints what 'kubectl explain TYPE[.FIELD.PATH]' prints against a cluster
with the CRDs installed, in its format and wording (kubectl 1.27 and later),
from the OpenAPI v3 the apiserver publishes for them; then, in a section of
its own, what the CRD says of those fields that kubectl explain does not
show: the CEL rules guarding each (with their messages), immutability (a
self == oldSelf rule), list type and map keys, the default, value
validations (pattern, format, bounds, lengths) and the printer columns
that read it. TYPE is a plural, singular, short name or kind of a CRD among
--crd (any case), or PLURAL.GROUP; the version is --api-version's, else the
CRD's preferred served version. A field that does not exist, an unknown
TYPE or an unserved version exit 2; a CRD the apiserver would reject, 1.

Flags:
  --crd PATH                 a CRD file or directory (repeatable)
  --api-version GROUP/VERSION  the group and version to explain
  --recursive                list the fields of fields (names and types only)
  -o FORMAT                  plaintext (default) or json: one JSON object (docs/cli.md)

Examples:
  crdschema explain --crd config/crd/bases crontab.spec
  crdschema explain --crd crds/ certificates.cert-manager.io.spec --recursive
`,
	"openapi": `usage: crdschema openapi [--crd PATH...] [-o json|yaml] [PATH...]

Prints, for every served version of every CustomResourceDefinition (in file,
document and spec.versions order), the OpenAPI definitions the apiserver
publishes for the kind and its List kind: v3 (/openapi/v3/apis/GROUP/VERSION,
components.schemas) and v2 (/openapi/v2, definitions: no defaults, no
junctors, nullable and preserve-unknown-fields subtrees dropped). A CRD the
apiserver would reject gets one line with its errors and no definitions.
CRD PATHs may be given with --crd or as plain arguments.

Flags:
  --crd PATH  a CRD file or directory (repeatable)
  -o FORMAT   json (default): one JSON line per CRD version (docs/cli.md); yaml: a YAML stream

Examples:
  crdschema openapi config/crd/bases
  crdschema openapi -o yaml --crd crontab.yaml
`,
	"check": `usage: crdschema check [--skip-non-crds] [--old PATH]... [--lint-fail] [-o text|json|github|junit] PATH...

Reports, for every CustomResourceDefinition (apiextensions.k8s.io/v1 or
v1beta1) or bare OpenAPI v3 schema among the documents, the errors
'kubectl create' of that CRD would get, with the apiserver's field paths,
and the warnings it would print when accepted. Apart from them, it lints
what the apiserver accepts but cannot work: printer columns and scale
paths that can never match the schema, column types that cannot hold
their field, column JSONPaths that do not parse, negative priorities.

Flags:
  -o, --output FORMAT  text (default): one line per error, "file:line:col: Kind/name: field: message",
                       and a summary line;
                       json: one JSON line per document (the contract of docs/cli.md);
                       github: GitHub Actions ::error annotations; junit: a JUnit XML report
  --skip-non-crds      lint a repository: check only the CRDs, and skip (and count in the
                       summary) everything else: Kubernetes objects that are not CRDs,
                       documents without apiVersion or kind (bare schemas too), non-mapping
                       documents, kustomize patches, test assertions and negative tests
                       (chainsaw, kuttl), templates that do not parse; any other document of
                       a directory walk that does not parse is an error
  --exclude GLOB       leave out of a directory walk what GLOB matches (repeatable; path.Match
                       syntax, against the path below the directory or the name alone);
                       .gitignore is not read
  --old PATH           CRDs the cluster already stores (repeatable): a CRD of the same name
                       is checked as an update of the stored one ('kubectl apply' of a new
                       revision: immutable names and scope, stored versions, ratcheting)
  --lint-fail          exit 1 when a CRD has lint findings (by default they are reported,
                       as "lint:" lines, a "lint" list in json, and do not fail the run)
  --max-input-bytes N  refuse an input (a file, or stdin) larger than N bytes: default 64Mi;
                       suffixes k, M, G, Ki, Mi, Gi; 0 for no limit
  --timeout DURATION   give up after DURATION (30s, 5m): exit 2, output so far kept; default none

Examples:
  crdschema check config/crd/bases
  crdschema check --skip-non-crds -o github .
  kubectl get crd -o yaml > stored.yaml; crdschema check --old stored.yaml config/crd/bases
  kubectl get crd crontabs.stable.example.com -o yaml | crdschema check -
`,
	"prune": `usage: crdschema prune [--crd PATH... | --schema PATH] [--skip-unknown-kinds] [-o FORMAT] OBJECTS...

Drops what the schema does not specify, as the apiserver does when it reads a
custom resource from storage: unknown fields (listed as "pruned"), and
unknown or malformed metadata fields.
` + objectFlags + crdsAmongObjects + `
Examples:
  crdschema prune --crd crontab-crd.yaml crontab.yaml
  crdschema prune --schema schema.yaml -o json objects/
`,
	"default": `usage: crdschema default [--crd PATH... | --schema PATH] [--skip-unknown-kinds] [-o FORMAT] OBJECTS...

Drops null values of non-nullable fields that have no default, then applies
the schema's defaults (no pruning), as the apiserver does.
` + objectFlags + crdsAmongObjects + `
Examples:
  crdschema default --crd crontab-crd.yaml crontab.yaml
`,
	"apply": `usage: crdschema apply [--crd PATH... | --schema PATH] [--strict] [--skip-unknown-kinds] [-o FORMAT] OBJECTS...
       crdschema apply --crd PATH... --old PATH... [--subresource status] [-o FORMAT] OBJECTS...

Does to each object what the apiserver does to a create request: prune, drop
nulls, coerce metadata, default, drop .status under the status subresource,
validate. Prints what the cluster would store, and the errors that would make
it refuse the object.
` + objectFlags + `  --strict             answer as for fieldValidation=Strict (kubectl's default): an object
                       with unknown or duplicate fields is rejected, one error per field
  --old PATH           objects the cluster stores (repeatable): an object with the same
                       apiVersion, kind, namespace and name is an update of it (validation
                       with ratcheting, ObjectMeta update rules); the others are creates
  --subresource status every update is a status update (PUT .../status); needs --old
` + crdsAmongObjects + `
Examples:
  crdschema apply --crd crontab-crd.yaml crontab.yaml
  crdschema apply --strict -o json --crd crds/ objects/
  # would the cluster accept this change of a stored object?
  crdschema apply --crd crds/ --old live.yaml changed.yaml
  # CI lint of a repository mixing Deployments, CRDs, custom resources, a Helm chart,
  # workflows: every error annotated on the line of its field
  crdschema apply --skip-unknown-kinds --strict -o github .
`,
	"convert": `usage: crdschema convert --crd PATH... --to [GROUP/]VERSION [-o yaml|json] OBJECTS...
       crdschema convert --review PATH... [-o json]

Reads every OBJECT, a custom resource as stored in etcd at the version its
apiVersion names (defined by its CRD, served or not), as the apiserver serves
it on a GET at the --to version (served): pruned with the stored version's
schema, metadata coerced (malformed fields dropped, a missing generation set
to 1), defaulted with the stored version's schema, converted (strategy None:
only apiVersion changes), pruned with the --to version's schema, whose
defaults are not applied. Objects of CRDs with strategy Webhook that are not
already at --to need the webhook: an error.

With --review, every document is a ConversionReview (v1 or v1beta1) holding
the request the apiserver sent and the webhook's response: prints whether the
apiserver accepts the answer, and the objects it continues with (other
metadata changes reverted, only labels and annotations kept).

Flags:
  --crd PATH           CRDs the objects belong to (repeatable; files or directories)
  --to VERSION         the version to read at: VERSION (in each object's group) or GROUP/VERSION
  -o, --output FORMAT  yaml (default): the served objects on stdout, the rest on stderr;
                       json: one JSON line per object (the contract of docs/cli.md)
  --review             check ConversionReviews instead (no --crd, no --to; -o json)
  --max-input-bytes N  refuse an input (a file, or stdin) larger than N bytes: default 64Mi

Examples:
  crdschema convert --crd crontab-crd.yaml --to v1 stored.yaml
  crdschema convert --review -o json reviews/
`,
	"sample": `usage: crdschema sample --crd PATH [--version V] [-n N] [--seed S] [--round-trip] [-o yaml|json]

Prints N example objects of a served version of the CRD in PATH (a file
holding one CRD), generated from the version's schema and kept only when a
create at that version passes (pruning, defaulting, validation, CEL rules):
required fields and some optional ones, values of their type, format, enum,
bounds and pattern, unique set items and map keys, embedded resources,
int-or-string values, an extra field where unknown fields are preserved. The
same seed prints the same objects. Exit 1 when fewer than N pass.

With --round-trip, N objects of every served version A are each created at A,
stored at the storage version, read at every other served version B, written
back at B and read at A, as the apiserver does (strategy None; a Webhook CRD
fails its reads: the command has no converter). Prints every field lost or
changed, with the step that lost it, and every step rejected; exit 1 when
there is any.

Flags:
  --crd PATH           the CRD (a file with exactly one CRD)
  --version V          the served version to sample (default: the preferred version)
  -n N                 objects per version (default 1)
  --seed S             the seed, an unsigned integer (default 1)
  --round-trip         round-trip between every pair of served versions (no --version)
  -o, --output FORMAT  yaml (default): a YAML stream (--round-trip: one line per field);
                       json: one JSON line per object (--round-trip: per trip)
  --max-input-bytes N  refuse a CRD file larger than N bytes: default 64Mi

Examples:
  crdschema sample --crd crontab-crd.yaml -n 3 --seed 42
  crdschema sample --crd crontab-crd.yaml --round-trip -n 5
`,
}

const objectFlags = `
Flags:
  --crd PATH           CRDs to route objects to, by apiVersion and kind (repeatable; files or
                       directories)
  --schema PATH        one bare OpenAPI v3 schema for every object, treated as a resource root
  -o, --output FORMAT  yaml (default): the objects the cluster would store on stdout (rejected
                       ones left out), errors, warnings and the summary on stderr;
                       json: one JSON line per object (the contract of docs/cli.md);
                       text: one line per error or pruned field; github: GitHub Actions
                       annotations; junit: a JUnit XML report
  --skip-unknown-kinds lint a repository: skip (and count in the summary) objects whose
                       group/kind no given CRD defines (Deployments, ConfigMaps, ...), CRD
                       documents, documents without apiVersion or kind (workflows,
                       values.yaml, kustomizations), non-mapping documents, kustomize
                       patches, test assertions and negative tests (chainsaw, kuttl) and
                       templates that do not parse; any other document of a directory walk
                       that does not parse is an error (docs/cli.md, "Linting a repository")
  --exclude GLOB       leave out of a directory walk what GLOB matches (repeatable; path.Match
                       syntax, against the path below the directory or the name alone);
                       .gitignore is not read
  --max-input-bytes N  refuse an input (a file, or stdin) larger than N bytes: default 64Mi;
                       suffixes k, M, G, Ki, Mi, Gi; 0 for no limit
  --timeout DURATION   give up after DURATION (30s, 5m): exit 2, output so far kept; default none
`

const crdsAmongObjects = `
Without --crd and --schema, the CRDs are the CustomResourceDefinitions found
among OBJECTS (those documents are then skipped, not processed as objects), so
one call checks a whole repository.
`

// verbUsage is the first line of a verb's help, for errors.
func verbUsage(verb string) string {
	h := verbHelp[verb]
	first, _, _ := strings.Cut(h, "\n")
	return first + "\nRun 'crdschema help " + verb + "' for more.\n"
}

// runHelp prints the help of the verb named in args, or the general usage.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if h, ok := verbHelp[args[0]]; ok {
		fmt.Fprint(stdout, h)
		return 0
	}
	switch args[0] {
	case "help":
		fmt.Fprint(stdout, "usage: crdschema help [VERB]\n\nPrints the usage of crdschema or of one verb.\n")
		return 0
	case "version":
		fmt.Fprint(stdout, "usage: crdschema version\n\nPrints the module version and the Kubernetes version whose behaviour crdschema reproduces.\n")
		return 0
	}
	fmt.Fprintf(stderr, "crdschema help: unknown verb %q\n%s", args[0], usage)
	return 2
}

// runVersion prints the module version and the reproduced Kubernetes
// version.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			return runHelp([]string{"version"}, stdout, stderr)
		}
		fmt.Fprintf(stderr, "crdschema version: takes no arguments\n")
		return 2
	}
	fmt.Fprintf(stdout, "crdschema %s\nreproduces Kubernetes %s (%s)\n", moduleVersion(debug.ReadBuildInfo), kubernetesVersion, apiextensionsVersion)
	return 0
}

// moduleVersion is the version of the crdschema module the binary was built
// from: the main module's version for `go install ...@version`, the
// dependency's version when another module builds the command, "(devel)"
// for a build in the source tree (with the VCS revision when known).
func moduleVersion(readBuildInfo func() (*debug.BuildInfo, bool)) string {
	bi, ok := readBuildInfo()
	if !ok {
		return "(unknown)"
	}
	mod := &bi.Main
	if mod.Path != modulePath {
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				mod = d
				break
			}
		}
	}
	if mod.Replace != nil && mod.Replace.Version != "" {
		mod = mod.Replace
	}
	v := mod.Version
	if v == "" {
		v = "(devel)"
	}
	if v == "(devel)" {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			v += " " + rev
			if modified == "true" {
				v += "+dirty"
			}
		}
	}
	return v
}
