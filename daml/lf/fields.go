package lf

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of daml_lf2.proto (Canton 3.5), grouped per message and
// named <message>_<field>, so that the decoders name what they read.

// Package.
const (
	fPackageModules                 protowire.Number = 1
	fPackageInternedStrings         protowire.Number = 2
	fPackageInternedDottedNames     protowire.Number = 3
	fPackageMetadata                protowire.Number = 4
	fPackageInternedTypes           protowire.Number = 5
	fPackageInternedKinds           protowire.Number = 6
	fPackageInternedExprs           protowire.Number = 7
	fPackageNoImportedPackageReason protowire.Number = 8
	fPackagePackageImports          protowire.Number = 9
)

// PackageMetadata, UpgradedPackageId, PackageImports, InternedDottedName.
const (
	fMetadataName                  protowire.Number = 1
	fMetadataVersion               protowire.Number = 2
	fMetadataUpgradedPackageID     protowire.Number = 3
	fUpgradedPackageIDInternedStr  protowire.Number = 1
	fPackageImportsImportedPackage protowire.Number = 1
	fDottedNameSegments            protowire.Number = 1
)

// SelfOrImportedPackageId, ModuleId, TypeConId (also TypeSynId, ValueId).
const (
	fPkgRefSelf             protowire.Number = 1
	fPkgRefImportedInterned protowire.Number = 3
	fPkgRefImportID         protowire.Number = 4
	fModuleIDPackage        protowire.Number = 1
	fModuleIDName           protowire.Number = 2
	fTypeConIDModule        protowire.Number = 1
	fTypeConIDName          protowire.Number = 2
)

// Kind and Kind.Arrow.
const (
	fKindStar         protowire.Number = 1
	fKindArrow        protowire.Number = 2
	fKindNat          protowire.Number = 3
	fKindInterned     protowire.Number = 4
	fKindArrowParams  protowire.Number = 1
	fKindArrowResult  protowire.Number = 2
	maxKindCaseNumber                  = fKindInterned
)

// Type and its case messages.
const (
	fTypeVar          protowire.Number = 1
	fTypeCon          protowire.Number = 2
	fTypeBuiltin      protowire.Number = 3
	fTypeForall       protowire.Number = 4
	fTypeStruct       protowire.Number = 5
	fTypeNat          protowire.Number = 6
	fTypeSyn          protowire.Number = 7
	fTypeInterned     protowire.Number = 8
	fTypeTApp         protowire.Number = 9
	fTypeVarName      protowire.Number = 3 // Type.Var.var_interned_str
	fTypeArgs         protowire.Number = 2 // args of Type.Var, Con, Builtin, Syn
	fTypeConTycon     protowire.Number = 1 // Type.Con.tycon, Type.Syn.tysyn
	fTypeBuiltinType  protowire.Number = 1 // Type.Builtin.builtin
	fTypeForallVars   protowire.Number = 1
	fTypeForallBody   protowire.Number = 2
	fTypeStructFields protowire.Number = 1
	fTypeTAppLhs      protowire.Number = 1
	fTypeTAppRhs      protowire.Number = 2
)

// FieldWithType, VarWithType, TypeVarWithKind, FieldWithExpr, Binding,
// NameWithType.
const (
	fFieldWithTypeName   protowire.Number = 3
	fFieldWithTypeType   protowire.Number = 2
	fVarWithTypeName     protowire.Number = 3
	fVarWithTypeType     protowire.Number = 2
	fTypeVarWithKindName protowire.Number = 3
	fTypeVarWithKindKind protowire.Number = 2
	fFieldWithExprName   protowire.Number = 3
	fFieldWithExprExpr   protowire.Number = 2
	fBindingBinder       protowire.Number = 1
	fBindingBound        protowire.Number = 2
	fNameWithTypeName    protowire.Number = 1
	fNameWithTypeType    protowire.Number = 2
)

// Location.
const (
	fLocationModule protowire.Number = 1
	fLocationRange  protowire.Number = 2
)

// Module and FeatureFlags.
const (
	fModuleName       protowire.Number = 1
	fModuleFlags      protowire.Number = 2
	fModuleSynonyms   protowire.Number = 3
	fModuleDataTypes  protowire.Number = 4
	fModuleValues     protowire.Number = 5
	fModuleTemplates  protowire.Number = 6
	fModuleExceptions protowire.Number = 7
	fModuleInterfaces protowire.Number = 8
)

// DefTypeSyn, DefDataType, DefValue, DefException.
const (
	fDefTypeSynLocation     protowire.Number = 1
	fDefTypeSynName         protowire.Number = 2
	fDefTypeSynParams       protowire.Number = 3
	fDefTypeSynType         protowire.Number = 4
	fDefDataTypeLocation    protowire.Number = 1
	fDefDataTypeName        protowire.Number = 2
	fDefDataTypeParams      protowire.Number = 3
	fDefDataTypeSerial      protowire.Number = 4
	fDefDataTypeRecord      protowire.Number = 5
	fDefDataTypeVariant     protowire.Number = 6
	fDefDataTypeEnum        protowire.Number = 7
	fDefDataTypeInterface   protowire.Number = 8
	fDataFieldsFields       protowire.Number = 1 // DefDataType.Fields.fields
	fEnumConstructors       protowire.Number = 2 // DefDataType.EnumConstructors
	fDefValueLocation       protowire.Number = 1
	fDefValueNameWithType   protowire.Number = 2
	fDefValueExpr           protowire.Number = 3
	fDefExceptionName       protowire.Number = 1
	fDefExceptionLocation   protowire.Number = 2
	fDefExceptionMessage    protowire.Number = 3
	fDefTemplateTycon       protowire.Number = 1
	fDefTemplateParam       protowire.Number = 2
	fDefTemplatePrecond     protowire.Number = 3
	fDefTemplateSignatories protowire.Number = 4
	fDefTemplateChoices     protowire.Number = 6
	fDefTemplateObservers   protowire.Number = 7
	fDefTemplateLocation    protowire.Number = 8
	fDefTemplateKey         protowire.Number = 9
	fDefTemplateImplements  protowire.Number = 10
	fDefKeyType             protowire.Number = 1
	fDefKeyMaintainers      protowire.Number = 3
	fDefKeyExpr             protowire.Number = 4
	fImplementsInterface    protowire.Number = 1
	fImplementsBody         protowire.Number = 2
	fImplementsLocation     protowire.Number = 3
	fInstanceBodyMethods    protowire.Number = 1
	fInstanceBodyView       protowire.Number = 2
	fInstanceMethodName     protowire.Number = 1
	fInstanceMethodValue    protowire.Number = 2
)

// TemplateChoice, DefInterface, InterfaceMethod.
const (
	fChoiceLocation       protowire.Number = 1
	fChoiceName           protowire.Number = 2
	fChoiceConsuming      protowire.Number = 3
	fChoiceControllers    protowire.Number = 4
	fChoiceObservers      protowire.Number = 5
	fChoiceArgBinder      protowire.Number = 6
	fChoiceRetType        protowire.Number = 8
	fChoiceUpdate         protowire.Number = 9
	fChoiceSelfBinder     protowire.Number = 10
	fChoiceAuthorizers    protowire.Number = 1001
	fDefInterfaceLocation protowire.Number = 1
	fDefInterfaceTycon    protowire.Number = 2
	fDefInterfaceMethods  protowire.Number = 3
	fDefInterfaceParam    protowire.Number = 4
	fDefInterfaceChoices  protowire.Number = 5
	fDefInterfaceView     protowire.Number = 6
	fDefInterfaceRequires protowire.Number = 7
	fInterfaceMethodLoc   protowire.Number = 1
	fInterfaceMethodName  protowire.Number = 2
	fInterfaceMethodType  protowire.Number = 3
)

// Expr cases (the oneof Sum of Expr) and Expr.location.
const (
	fExprLocation                    protowire.Number = 1
	fExprVar                         protowire.Number = 2
	fExprVal                         protowire.Number = 3
	fExprBuiltin                     protowire.Number = 4
	fExprBuiltinCon                  protowire.Number = 5
	fExprBuiltinLit                  protowire.Number = 6
	fExprRecCon                      protowire.Number = 7
	fExprRecProj                     protowire.Number = 8
	fExprRecUpd                      protowire.Number = 9
	fExprVariantCon                  protowire.Number = 10
	fExprEnumCon                     protowire.Number = 11
	fExprStructCon                   protowire.Number = 12
	fExprStructProj                  protowire.Number = 13
	fExprStructUpd                   protowire.Number = 14
	fExprApp                         protowire.Number = 15
	fExprTyApp                       protowire.Number = 16
	fExprAbs                         protowire.Number = 17
	fExprTyAbs                       protowire.Number = 18
	fExprCase                        protowire.Number = 19
	fExprLet                         protowire.Number = 20
	fExprNil                         protowire.Number = 21
	fExprCons                        protowire.Number = 22
	fExprUpdate                      protowire.Number = 23
	fExprOptionalNone                protowire.Number = 25
	fExprOptionalSome                protowire.Number = 26
	fExprToAny                       protowire.Number = 27
	fExprFromAny                     protowire.Number = 28
	fExprTypeRep                     protowire.Number = 29
	fExprToAnyException              protowire.Number = 30
	fExprFromAnyException            protowire.Number = 31
	fExprThrow                       protowire.Number = 32
	fExprToInterface                 protowire.Number = 33
	fExprFromInterface               protowire.Number = 34
	fExprCallInterface               protowire.Number = 35
	fExprSignatoryInterface          protowire.Number = 36
	fExprObserverInterface           protowire.Number = 37
	fExprViewInterface               protowire.Number = 38
	fExprUnsafeFromInterface         protowire.Number = 39
	fExprInterfaceTemplateTypeRep    protowire.Number = 40
	fExprToRequiredInterface         protowire.Number = 41
	fExprFromRequiredInterface       protowire.Number = 42
	fExprUnsafeFromRequiredInterface protowire.Number = 43
	fExprInterned                    protowire.Number = 44
	fExprChoiceController            protowire.Number = 1001
	fExprChoiceObserver              protowire.Number = 1002
	fExprExperimental                protowire.Number = 9999
)

// Fields of the Expr case messages. Messages of the same shape share
// constants (e.g. every {type=1, expr=2} message).
const (
	fRecConTycon         protowire.Number = 1 // RecCon, RecProj, RecUpd, VariantCon
	fRecConFields        protowire.Number = 2
	fRecProjField        protowire.Number = 4
	fRecProjRecord       protowire.Number = 3
	fRecUpdField         protowire.Number = 2
	fRecUpdRecord        protowire.Number = 3
	fRecUpdUpdate        protowire.Number = 4
	fVariantConCon       protowire.Number = 2
	fVariantConArg       protowire.Number = 3
	fEnumConTycon        protowire.Number = 1
	fEnumConCon          protowire.Number = 2
	fStructConFields     protowire.Number = 1
	fStructProjField     protowire.Number = 1
	fStructProjStruct    protowire.Number = 2
	fStructUpdField      protowire.Number = 1
	fStructUpdStruct     protowire.Number = 2
	fStructUpdUpdate     protowire.Number = 3
	fAppFun              protowire.Number = 1
	fAppArgs             protowire.Number = 2
	fTyAppExpr           protowire.Number = 1
	fTyAppTypes          protowire.Number = 2
	fAbsParams           protowire.Number = 1
	fAbsBody             protowire.Number = 2
	fCaseScrut           protowire.Number = 1
	fCaseAlts            protowire.Number = 2
	fBlockBindings       protowire.Number = 1 // Expr.let and Update.block
	fBlockBody           protowire.Number = 2
	fNilType             protowire.Number = 1
	fConsType            protowire.Number = 1
	fConsFront           protowire.Number = 2
	fConsTail            protowire.Number = 3
	fTypeExprType        protowire.Number = 1 // OptionalSome, ToAny, FromAny, ...AnyException, Pure, EmbedExpr
	fTypeExprExpr        protowire.Number = 2
	fThrowReturnType     protowire.Number = 1
	fThrowExceptionType  protowire.Number = 2
	fThrowExceptionExpr  protowire.Number = 3
	fIfaceConvInterface  protowire.Number = 1 // To/FromInterface, UnsafeFromInterface
	fIfaceConvTemplate   protowire.Number = 2
	fIfaceConvExpr       protowire.Number = 3
	fUnsafeFromIfaceCid  protowire.Number = 3
	fUnsafeFromIfaceExpr protowire.Number = 4
	fCallIfaceInterface  protowire.Number = 1
	fCallIfaceMethod     protowire.Number = 2
	fCallIfaceExpr       protowire.Number = 3
	fIfaceExprInterface  protowire.Number = 1 // Signatory/Observer/ViewInterface, InterfaceTemplateTypeRep
	fIfaceExprExpr       protowire.Number = 2
	fRequiredRequired    protowire.Number = 1 // To/From/UnsafeFromRequiredInterface
	fRequiredRequiring   protowire.Number = 2
	fRequiredExpr        protowire.Number = 3
	fUnsafeRequiredCid   protowire.Number = 3
	fUnsafeRequiredExpr  protowire.Number = 4
	fExperimentalName    protowire.Number = 1
	fExperimentalType    protowire.Number = 2
)

// BuiltinLit cases.
const (
	fLitInt64           protowire.Number = 1
	fLitTimestamp       protowire.Number = 2
	fLitNumeric         protowire.Number = 3
	fLitText            protowire.Number = 4
	fLitDate            protowire.Number = 5
	fLitFailureCategory protowire.Number = 6
	fLitRoundingMode    protowire.Number = 1001
)

// CaseAlt and its pattern messages.
const (
	fAltBody             protowire.Number = 1
	fAltDefault          protowire.Number = 2
	fAltVariant          protowire.Number = 3
	fAltBuiltinCon       protowire.Number = 4
	fAltNil              protowire.Number = 5
	fAltCons             protowire.Number = 6
	fAltOptionalNone     protowire.Number = 7
	fAltOptionalSome     protowire.Number = 8
	fAltEnum             protowire.Number = 9
	fAltVariantCon       protowire.Number = 1
	fAltVariantVariant   protowire.Number = 2
	fAltVariantBinder    protowire.Number = 3
	fAltConsHead         protowire.Number = 1
	fAltConsTail         protowire.Number = 2
	fAltOptionalSomeBody protowire.Number = 1
	fAltEnumCon          protowire.Number = 1
	fAltEnumConstructor  protowire.Number = 2
)

// Update cases and their messages.
const (
	fUpdatePure              protowire.Number = 1
	fUpdateBlock             protowire.Number = 2
	fUpdateCreate            protowire.Number = 3
	fUpdateExercise          protowire.Number = 4
	fUpdateFetch             protowire.Number = 5
	fUpdateGetTime           protowire.Number = 6
	fUpdateEmbedExpr         protowire.Number = 7
	fUpdateLookupByKey       protowire.Number = 8
	fUpdateFetchByKey        protowire.Number = 9
	fUpdateExerciseByKey     protowire.Number = 10
	fUpdateTryCatch          protowire.Number = 11
	fUpdateCreateInterface   protowire.Number = 12
	fUpdateExerciseInterface protowire.Number = 13
	fUpdateFetchInterface    protowire.Number = 14
	fUpdateLedgerTimeLT      protowire.Number = 15
	fUpdateQueryNByKey       protowire.Number = 16

	fCreateTemplate         protowire.Number = 1 // Create, CreateInterface
	fCreateExpr             protowire.Number = 2
	fExerciseTemplate       protowire.Number = 1
	fExerciseChoice         protowire.Number = 6
	fExerciseCid            protowire.Number = 3
	fExerciseArg            protowire.Number = 5
	fExerciseIfaceInterface protowire.Number = 1
	fExerciseIfaceChoice    protowire.Number = 2
	fExerciseIfaceCid       protowire.Number = 3
	fExerciseIfaceArg       protowire.Number = 4
	fExerciseIfaceGuard     protowire.Number = 5
	fExerciseByKeyTemplate  protowire.Number = 1
	fExerciseByKeyChoice    protowire.Number = 2
	fExerciseByKeyKey       protowire.Number = 3
	fExerciseByKeyArg       protowire.Number = 4
	fFetchTemplate          protowire.Number = 1 // Fetch, FetchInterface
	fFetchCid               protowire.Number = 2
	fRetrieveByKeyTemplate  protowire.Number = 1 // RetrieveByKey, QueryNByKey
	fTryCatchReturnType     protowire.Number = 1
	fTryCatchTryExpr        protowire.Number = 2
	fTryCatchVar            protowire.Number = 3
	fTryCatchCatchExpr      protowire.Number = 4
)
