/* libclang, loaded on first use instead of at program start.
 *
 * Linking libclang made every ddigen command pay for loading LLVM: 19 ms of
 * relocations and page faults before main, most of the run of `ddigen
 * docs` on a page and an eighth of it on 825 pages, though only the header
 * stage and the syntax blocks of the docs stage call it (the docs stage on
 * its worker thread, so the load now overlaps the reading of pages).
 *
 * Include this header instead of <clang-c/Index.h>: every libclang
 * function used by ddigen is listed below and its name is redirected to a
 * table filled by dlopen/dlsym of the library ddigen was built against
 * (its SONAME, like a DT_NEEDED entry). A function not listed is a link
 * error, so the list cannot silently fall behind the code. */
#ifndef DDIGEN_CLANG_API_H
#define DDIGEN_CLANG_API_H

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#define DDIGEN_CLANG_FUNCTIONS(X) \
    X(clang_CompilationDatabase_dispose) \
    X(clang_CompilationDatabase_fromDirectory) \
    X(clang_CompilationDatabase_getCompileCommands) \
    X(clang_CompileCommand_getArg) \
    X(clang_CompileCommand_getDirectory) \
    X(clang_CompileCommand_getNumArgs) \
    X(clang_CompileCommands_dispose) \
    X(clang_CompileCommands_getCommand) \
    X(clang_CompileCommands_getSize) \
    X(clang_Cursor_getArgument) \
    X(clang_Cursor_getNumArguments) \
    X(clang_Cursor_getOffsetOfField) \
    X(clang_Cursor_isAnonymous) \
    X(clang_Cursor_isAnonymousRecordDecl) \
    X(clang_Cursor_isBitField) \
    X(clang_Cursor_isMacroFunctionLike) \
    X(clang_Cursor_isNull) \
    X(clang_Location_isFromMainFile) \
    X(clang_Location_isInSystemHeader) \
    X(clang_Type_getAlignOf) \
    X(clang_Type_getNamedType) \
    X(clang_Type_getOffsetOf) \
    X(clang_Type_getSizeOf) \
    X(clang_Type_visitFields) \
    X(clang_createIndex) \
    X(clang_defaultSaveOptions) \
    X(clang_disposeDiagnostic) \
    X(clang_disposeIndex) \
    X(clang_disposeSourceRangeList) \
    X(clang_disposeString) \
    X(clang_disposeTokens) \
    X(clang_disposeTranslationUnit) \
    X(clang_equalCursors) \
    X(clang_getArgType) \
    X(clang_getArrayElementType) \
    X(clang_getArraySize) \
    X(clang_getCString) \
    X(clang_getCanonicalCursor) \
    X(clang_getCanonicalType) \
    X(clang_getCursorDefinition) \
    X(clang_getCursorExtent) \
    X(clang_getCursorKind) \
    X(clang_getCursorLexicalParent) \
    X(clang_getCursorLocation) \
    X(clang_getCursorReferenced) \
    X(clang_getCursorSemanticParent) \
    X(clang_getCursorSpelling) \
    X(clang_getCursorType) \
    X(clang_getDiagnostic) \
    X(clang_getDiagnosticLocation) \
    X(clang_getDiagnosticSeverity) \
    X(clang_getDiagnosticSpelling) \
    X(clang_getEnumConstantDeclValue) \
    X(clang_getEnumDeclIntegerType) \
    X(clang_getExpansionLocation) \
    X(clang_getFieldDeclBitWidth) \
    X(clang_getFile) \
    X(clang_getFileContents) \
    X(clang_getFileName) \
    X(clang_getFunctionTypeCallingConv) \
    X(clang_getInclusions) \
    X(clang_getLocationForOffset) \
    X(clang_getNullCursor) \
    X(clang_getNumArgTypes) \
    X(clang_getNumDiagnostics) \
    X(clang_getPointeeType) \
    X(clang_getPresumedLocation) \
    X(clang_getRange) \
    X(clang_getRangeEnd) \
    X(clang_getRangeStart) \
    X(clang_getResultType) \
    X(clang_getSkippedRanges) \
    X(clang_getSpellingLocation) \
    X(clang_getTokenKind) \
    X(clang_getTokenLocation) \
    X(clang_getTokenSpelling) \
    X(clang_getTranslationUnitCursor) \
    X(clang_getTypeDeclaration) \
    X(clang_getTypeSpelling) \
    X(clang_getTypedefDeclUnderlyingType) \
    X(clang_hashCursor) \
    X(clang_isCursorDefinition) \
    X(clang_isInvalidDeclaration) \
    X(clang_parseTranslationUnit2) \
    X(clang_saveTranslationUnit) \
    X(clang_tokenize) \
    X(clang_visitChildren)

struct ddigen_clang_api {
#define DDIGEN_CLANG_MEMBER(name) __typeof__(name) *name;
    DDIGEN_CLANG_FUNCTIONS(DDIGEN_CLANG_MEMBER)
#undef DDIGEN_CLANG_MEMBER
};

/* The table; loads libclang on the first call (thread-safe). A library that
 * cannot be loaded, or lacks a function, ends the program with exit 1 and a
 * message naming it: nothing ddigen does with libclang can go on without it. */
const struct ddigen_clang_api *ddigen_clang(void);

#ifndef DDIGEN_CLANG_API_IMPL
#define clang_CompilationDatabase_dispose (ddigen_clang()->clang_CompilationDatabase_dispose)
#define clang_CompilationDatabase_fromDirectory (ddigen_clang()->clang_CompilationDatabase_fromDirectory)
#define clang_CompilationDatabase_getCompileCommands (ddigen_clang()->clang_CompilationDatabase_getCompileCommands)
#define clang_CompileCommand_getArg (ddigen_clang()->clang_CompileCommand_getArg)
#define clang_CompileCommand_getDirectory (ddigen_clang()->clang_CompileCommand_getDirectory)
#define clang_CompileCommand_getNumArgs (ddigen_clang()->clang_CompileCommand_getNumArgs)
#define clang_CompileCommands_dispose (ddigen_clang()->clang_CompileCommands_dispose)
#define clang_CompileCommands_getCommand (ddigen_clang()->clang_CompileCommands_getCommand)
#define clang_CompileCommands_getSize (ddigen_clang()->clang_CompileCommands_getSize)
#define clang_Cursor_getArgument (ddigen_clang()->clang_Cursor_getArgument)
#define clang_Cursor_getNumArguments (ddigen_clang()->clang_Cursor_getNumArguments)
#define clang_Cursor_getOffsetOfField (ddigen_clang()->clang_Cursor_getOffsetOfField)
#define clang_Cursor_isAnonymous (ddigen_clang()->clang_Cursor_isAnonymous)
#define clang_Cursor_isAnonymousRecordDecl (ddigen_clang()->clang_Cursor_isAnonymousRecordDecl)
#define clang_Cursor_isBitField (ddigen_clang()->clang_Cursor_isBitField)
#define clang_Cursor_isMacroFunctionLike (ddigen_clang()->clang_Cursor_isMacroFunctionLike)
#define clang_Cursor_isNull (ddigen_clang()->clang_Cursor_isNull)
#define clang_Location_isFromMainFile (ddigen_clang()->clang_Location_isFromMainFile)
#define clang_Location_isInSystemHeader (ddigen_clang()->clang_Location_isInSystemHeader)
#define clang_Type_getAlignOf (ddigen_clang()->clang_Type_getAlignOf)
#define clang_Type_getNamedType (ddigen_clang()->clang_Type_getNamedType)
#define clang_Type_getOffsetOf (ddigen_clang()->clang_Type_getOffsetOf)
#define clang_Type_getSizeOf (ddigen_clang()->clang_Type_getSizeOf)
#define clang_Type_visitFields (ddigen_clang()->clang_Type_visitFields)
#define clang_createIndex (ddigen_clang()->clang_createIndex)
#define clang_defaultSaveOptions (ddigen_clang()->clang_defaultSaveOptions)
#define clang_disposeDiagnostic (ddigen_clang()->clang_disposeDiagnostic)
#define clang_disposeIndex (ddigen_clang()->clang_disposeIndex)
#define clang_disposeSourceRangeList (ddigen_clang()->clang_disposeSourceRangeList)
#define clang_disposeString (ddigen_clang()->clang_disposeString)
#define clang_disposeTokens (ddigen_clang()->clang_disposeTokens)
#define clang_disposeTranslationUnit (ddigen_clang()->clang_disposeTranslationUnit)
#define clang_equalCursors (ddigen_clang()->clang_equalCursors)
#define clang_getArgType (ddigen_clang()->clang_getArgType)
#define clang_getArrayElementType (ddigen_clang()->clang_getArrayElementType)
#define clang_getArraySize (ddigen_clang()->clang_getArraySize)
#define clang_getCString (ddigen_clang()->clang_getCString)
#define clang_getCanonicalCursor (ddigen_clang()->clang_getCanonicalCursor)
#define clang_getCanonicalType (ddigen_clang()->clang_getCanonicalType)
#define clang_getCursorDefinition (ddigen_clang()->clang_getCursorDefinition)
#define clang_getCursorExtent (ddigen_clang()->clang_getCursorExtent)
#define clang_getCursorKind (ddigen_clang()->clang_getCursorKind)
#define clang_getCursorLexicalParent (ddigen_clang()->clang_getCursorLexicalParent)
#define clang_getCursorLocation (ddigen_clang()->clang_getCursorLocation)
#define clang_getCursorReferenced (ddigen_clang()->clang_getCursorReferenced)
#define clang_getCursorSemanticParent (ddigen_clang()->clang_getCursorSemanticParent)
#define clang_getCursorSpelling (ddigen_clang()->clang_getCursorSpelling)
#define clang_getCursorType (ddigen_clang()->clang_getCursorType)
#define clang_getDiagnostic (ddigen_clang()->clang_getDiagnostic)
#define clang_getDiagnosticLocation (ddigen_clang()->clang_getDiagnosticLocation)
#define clang_getDiagnosticSeverity (ddigen_clang()->clang_getDiagnosticSeverity)
#define clang_getDiagnosticSpelling (ddigen_clang()->clang_getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue (ddigen_clang()->clang_getEnumConstantDeclValue)
#define clang_getEnumDeclIntegerType (ddigen_clang()->clang_getEnumDeclIntegerType)
#define clang_getExpansionLocation (ddigen_clang()->clang_getExpansionLocation)
#define clang_getFieldDeclBitWidth (ddigen_clang()->clang_getFieldDeclBitWidth)
#define clang_getFile (ddigen_clang()->clang_getFile)
#define clang_getFileContents (ddigen_clang()->clang_getFileContents)
#define clang_getFileName (ddigen_clang()->clang_getFileName)
#define clang_getFunctionTypeCallingConv (ddigen_clang()->clang_getFunctionTypeCallingConv)
#define clang_getInclusions (ddigen_clang()->clang_getInclusions)
#define clang_getLocationForOffset (ddigen_clang()->clang_getLocationForOffset)
#define clang_getNullCursor (ddigen_clang()->clang_getNullCursor)
#define clang_getNumArgTypes (ddigen_clang()->clang_getNumArgTypes)
#define clang_getNumDiagnostics (ddigen_clang()->clang_getNumDiagnostics)
#define clang_getPointeeType (ddigen_clang()->clang_getPointeeType)
#define clang_getPresumedLocation (ddigen_clang()->clang_getPresumedLocation)
#define clang_getRange (ddigen_clang()->clang_getRange)
#define clang_getRangeEnd (ddigen_clang()->clang_getRangeEnd)
#define clang_getRangeStart (ddigen_clang()->clang_getRangeStart)
#define clang_getResultType (ddigen_clang()->clang_getResultType)
#define clang_getSkippedRanges (ddigen_clang()->clang_getSkippedRanges)
#define clang_getSpellingLocation (ddigen_clang()->clang_getSpellingLocation)
#define clang_getTokenKind (ddigen_clang()->clang_getTokenKind)
#define clang_getTokenLocation (ddigen_clang()->clang_getTokenLocation)
#define clang_getTokenSpelling (ddigen_clang()->clang_getTokenSpelling)
#define clang_getTranslationUnitCursor (ddigen_clang()->clang_getTranslationUnitCursor)
#define clang_getTypeDeclaration (ddigen_clang()->clang_getTypeDeclaration)
#define clang_getTypeSpelling (ddigen_clang()->clang_getTypeSpelling)
#define clang_getTypedefDeclUnderlyingType (ddigen_clang()->clang_getTypedefDeclUnderlyingType)
#define clang_hashCursor (ddigen_clang()->clang_hashCursor)
#define clang_isCursorDefinition (ddigen_clang()->clang_isCursorDefinition)
#define clang_isInvalidDeclaration (ddigen_clang()->clang_isInvalidDeclaration)
#define clang_parseTranslationUnit2 (ddigen_clang()->clang_parseTranslationUnit2)
#define clang_saveTranslationUnit (ddigen_clang()->clang_saveTranslationUnit)
#define clang_tokenize (ddigen_clang()->clang_tokenize)
#define clang_visitChildren (ddigen_clang()->clang_visitChildren)
#endif

#endif
