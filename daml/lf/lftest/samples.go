package lftest

// Sample packages shared by the tests, benchmarks and examples of several
// packages.

// IouPackage is package "iou" at a version: template Main:Iou {owner: Party,
// amount: Int64} with a consuming Transfer {newOwner: Party} and a
// non-consuming Peek (Unit) choice.
func IouPackage(version string) Package {
	return Package{Name: "iou", Version: version, Imports: []string{}, Modules: []Module{{Name: "Main",
		DataTypes: []DataType{
			{Name: "Iou", Serializable: true, Fields: []Field{{Name: "owner", Type: B(Party)}, {Name: "amount", Type: B(Int64)}}},
			{Name: "Transfer", Serializable: true, Fields: []Field{{Name: "newOwner", Type: B(Party)}}},
		},
		Templates: []Template{{Name: "Iou", Choices: []Choice{
			{Name: "Transfer", Consuming: true, Arg: Con(Self(), "Main", "Transfer"), Ret: B(Unit)},
			{Name: "Peek", Consuming: false, Arg: B(Unit), Ret: B(Unit)},
		}}},
	}}}
}

// TemplatePackage is a package with one template Main:T of the given
// fields and a consuming choice Go (Unit), importing the given package ids
// (nil: none).
func TemplatePackage(name, version string, imports []string, fields ...Field) Package {
	if imports == nil {
		imports = []string{}
	}
	return Package{Name: name, Version: version, Imports: imports, Modules: []Module{{Name: "Main",
		DataTypes: []DataType{{Name: "T", Serializable: true, Fields: fields}},
		Templates: []Template{{Name: "T", Choices: []Choice{{Name: "Go", Consuming: true, Arg: B(Unit), Ret: B(Unit)}}}},
	}}}
}
