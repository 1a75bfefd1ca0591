// Package cel compiles, cost-checks and evaluates the
// x-kubernetes-validations (CEL) rules of CRD schemas as the apiserver
// (k8s.io/apiextensions-apiserver v0.37.2) does, on crdschema's structural
// model. It uses github.com/google/cel-go and the Kubernetes CEL libraries
// of k8s.io/apiserver (pkg/cel, pkg/cel/common, pkg/cel/library), pinned to
// the versions that apiserver uses, so functions, messages and costs are
// the apiserver's.
//
// At CRD creation (package check): NewSchemaCheck, then Node.Check for each
// schema node with rules and SchemaCheck.Finish, compile every rule,
// messageExpression and fieldPath with the environment of new expressions
// (Kubernetes 1.36 compatibility) and report compile errors, estimated cost
// errors (per expression and per schema), oldSelf where values cannot be
// correlated and optionalOldSelf without oldSelf.
//
// At runtime: NewValidator prepares a schema's rules, which it compiles
// with the environment of stored expressions, each node's once, when a
// value first reaches the node (the first validations compile); the
// Validator is safe for concurrent use. Callers run the OpenAPI
// validation first, then, when v.Evaluates() (the apiserver has no
// validator otherwise),
//
//	if e := cel.BlockingError(errs); e != nil {
//		errs = append(errs, e) // rules skipped, as the apiserver does
//	} else {
//		ruleErrs, _ := v.Validate(ctx, obj, old, cel.Options{Ratcheting: old != nil})
//		errs = append(errs, ruleErrs...)
//	}
//
// with old nil on create. On update (old set), transition rules (using
// oldSelf) run where an old value correlates, and with Ratcheting the
// errors of rules not using oldSelf on values equal to their correlated old
// values are dropped (Options.Warn receives them), as the apiserver's CRD
// validation ratcheting does. The runtime limits are the apiserver's: one
// evaluation may cost PerCallLimit, all the rules of one object
// RuntimeCostBudget; running out stops further rules with an error.
package cel
