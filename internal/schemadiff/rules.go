package schemadiff

// Level is how much a change can hurt the operations written against the
// old schema.
type Level int

// The levels, least harmful first.
const (
	// Safe: every operation valid against the old schema still is, and
	// means what it meant.
	Safe Level = iota
	// Dangerous: operations still validate, but an answer or a default
	// can now be one that code written for the old schema does not expect.
	Dangerous
	// Breaking: some operation valid against the old schema is refused
	// by the new one, or a client's reading of an answer fails.
	Breaking
)

func (l Level) String() string {
	switch l {
	case Safe:
		return "safe"
	case Dangerous:
		return "dangerous"
	case Breaking:
		return "breaking"
	}
	return "unknown"
}

// MarshalText writes the level by name in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Rule names a kind of change; its level and the reason it has that level
// are in Rules.
type Rule string

// The rules.
const (
	TypeRemoved     Rule = "type-removed"
	TypeAdded       Rule = "type-added"
	TypeKindChanged Rule = "type-kind-changed"
	RootTypeChanged Rule = "root-type-changed"

	FieldRemoved      Rule = "field-removed"
	FieldAdded        Rule = "field-added"
	FieldTypeChanged  Rule = "field-type-changed"
	FieldMadeNullable Rule = "field-made-nullable"
	FieldTypeNarrowed Rule = "field-type-narrowed"

	SimulationRenamed Rule = "simulation-renamed"

	ArgumentRemoved         Rule = "argument-removed"
	RequiredArgumentAdded   Rule = "required-argument-added"
	OptionalArgumentAdded   Rule = "optional-argument-added"
	ArgumentMadeRequired    Rule = "argument-made-required"
	ArgumentTypeChanged     Rule = "argument-type-changed"
	ArgumentTypeRelaxed     Rule = "argument-type-relaxed"
	ArgumentDefaultChanged  Rule = "argument-default-changed"
	ArgumentNullRefused     Rule = "argument-null-refused"
	InputFieldRemoved       Rule = "input-field-removed"
	RequiredInputFieldAdded Rule = "required-input-field-added"
	OptionalInputFieldAdded Rule = "optional-input-field-added"
	InputFieldMadeRequired  Rule = "input-field-made-required"
	InputFieldTypeChanged   Rule = "input-field-type-changed"
	InputFieldTypeRelaxed   Rule = "input-field-type-relaxed"
	InputFieldDefaultChange Rule = "input-field-default-changed"
	InputFieldNullRefused   Rule = "input-field-null-refused"

	EnumValueRemoved   Rule = "enum-value-removed"
	EnumValueAdded     Rule = "enum-value-added"
	UnionMemberRemoved Rule = "union-member-removed"
	UnionMemberAdded   Rule = "union-member-added"
	InterfaceRemoved   Rule = "interface-removed"
	InterfaceAdded     Rule = "interface-added"

	Deprecated               Rule = "deprecated"
	DeprecationRemoved       Rule = "deprecation-removed"
	DeprecationReasonChanged Rule = "deprecation-reason-changed"
	DescriptionChanged       Rule = "description-changed"

	DirectiveRemoved         Rule = "directive-removed"
	DirectiveAdded           Rule = "directive-added"
	DirectiveLocationRemoved Rule = "directive-location-removed"
	DirectiveLocationAdded   Rule = "directive-location-added"
	DirectiveMadeRepeatable  Rule = "directive-made-repeatable"
	DirectiveNoLongerRepeats Rule = "directive-no-longer-repeatable"
)

// RuleInfo is a rule's level and why it has it.
type RuleInfo struct {
	Rule  Rule   `json:"rule"`
	Level Level  `json:"level"`
	Why   string `json:"why"`
}

// Rules are every rule, each with its level and reason, in the order a
// report lists them.
func Rules() []RuleInfo {
	return []RuleInfo{
		{TypeRemoved, Breaking, "operations, fragments and variables that name the type no longer validate"},
		{TypeKindChanged, Breaking, "the selections, fragments and values written for the old kind no longer fit"},
		{RootTypeChanged, Breaking, "every operation of that kind is now checked against another type"},
		{FieldRemoved, Breaking, "operations that select the field are refused"},
		{FieldTypeChanged, Breaking, "the field's selections or the code that reads its value no longer fit"},
		{FieldMadeNullable, Breaking, "the field can now be null where clients rely on a value"},
		{SimulationRenamed, Breaking, "the Testing API simulation is only served under its new name: operations that call the old one are refused"},
		{ArgumentRemoved, Breaking, "operations that pass the argument are refused"},
		{RequiredArgumentAdded, Breaking, "operations that do not pass the new argument are refused"},
		{ArgumentMadeRequired, Breaking, "operations that leave the argument out, or pass null, are refused"},
		{ArgumentTypeChanged, Breaking, "values and variables of the old type no longer fit"},
		{InputFieldRemoved, Breaking, "inputs that set the field are refused"},
		{RequiredInputFieldAdded, Breaking, "inputs without the new field are refused"},
		{InputFieldMadeRequired, Breaking, "inputs that leave the field out, or set it to null, are refused"},
		{InputFieldTypeChanged, Breaking, "values of the old type no longer fit"},
		{EnumValueRemoved, Breaking, "operations and variables that send the value are refused, and code that expects it never sees it"},
		{UnionMemberRemoved, Breaking, "fragments on the member no longer fit the union"},
		{InterfaceRemoved, Breaking, "fragments on the interface no longer fit the type"},
		{DirectiveRemoved, Breaking, "operations that use the directive are refused"},
		{DirectiveLocationRemoved, Breaking, "operations that use the directive there are refused"},
		{DirectiveNoLongerRepeats, Breaking, "operations that repeat the directive are refused"},

		{ArgumentDefaultChanged, Dangerous, "operations that leave the argument out now get another behaviour"},
		{InputFieldDefaultChange, Dangerous, "inputs that leave the field out now get another behaviour"},
		{ArgumentNullRefused, Dangerous, "the argument keeps its default, but an explicit null is now refused"},
		{InputFieldNullRefused, Dangerous, "the field keeps its default, but an explicit null is now refused"},
		{EnumValueAdded, Dangerous, "answers can carry a value code written for the old schema does not expect"},
		{UnionMemberAdded, Dangerous, "answers can be of a type no fragment of the union selects"},
		{InterfaceAdded, Dangerous, "fragments on the interface now match this type too"},
		{Deprecated, Dangerous, "it still works, and is announced for removal: move off it (`partnertui check` finds its uses)"},

		{TypeAdded, Safe, "an addition: nothing written before uses it"},
		{FieldAdded, Safe, "an addition: nothing written before uses it"},
		{OptionalArgumentAdded, Safe, "an addition: nothing written before passes it"},
		{OptionalInputFieldAdded, Safe, "an addition: nothing written before sets it"},
		{DirectiveAdded, Safe, "an addition: nothing written before uses it"},
		{DirectiveLocationAdded, Safe, "an addition: nothing written before uses it"},
		{DirectiveMadeRepeatable, Safe, "what was valid stays valid"},
		{FieldTypeNarrowed, Safe, "every value the field can now take was possible before"},
		{ArgumentTypeRelaxed, Safe, "every value accepted before still is"},
		{InputFieldTypeRelaxed, Safe, "every value accepted before still is"},
		{DeprecationRemoved, Safe, "no longer announced for removal"},
		{DeprecationReasonChanged, Safe, "still deprecated; the reason says something else"},
		{DescriptionChanged, Safe, "documentation only"},
	}
}

// Info is rule's entry in Rules.
func Info(rule Rule) RuleInfo {
	for _, r := range Rules() {
		if r.Rule == rule {
			return r
		}
	}
	return RuleInfo{Rule: rule, Level: Breaking, Why: "unknown rule"}
}
