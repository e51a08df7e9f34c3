#!/usr/bin/env python3
"""Issue 26, "Grounded in the layout" and "Direction": the wrong checks the
real 14393 kit with the real pages used to get, one case each.

  grounded.py list OUT            every (validator, rule ID) the generated
                                  ddi_validate.c checks, one per line
  grounded.py check OUT CASE      one named case: exit 0 when the generated
                                  validators are right about it, 1 (saying
                                  what is wrong) when not
  grounded.py cases               the case names (those named reviewed_* read
                                  a generation with spec/overrides.xml and
                                  spec/reviewed.xml)

OUT is a `ddigen generate --wdk KIT --docs DOCS -o OUT` folder. The cases
read the generated C (the product a driver compiles), not the plan: a check
is the `/* RULE-ID */` comment the template writes before each test, inside
the validator function that holds it. Written from issue 26's list before
the fix; every case fails on the generator that had the wrong check.
"""
import inspect
import os
import re
import sys

FUNC = re.compile(r"^(?:DDI_VALIDATE_API|static __inline) unsigned long (ddi_validate_\w+?)_?\(")
CHECK = re.compile(r"^\s+/\* (\S+) \*/$")
DECL = re.compile(r"^DDI_VALIDATE_API unsigned long (ddi_validate_\w+)\(")


def in_validators(out, pattern):
    """(validator, match) for every line of a validator body that pattern
    matches; a static body `X_` counts as X."""
    func = None
    with open(os.path.join(out, "include", "ddi_validate.c"), encoding="utf-8") as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                func = m.group(1)
                continue
            if line.startswith("}"):
                func = None
                continue
            m = pattern.match(line)
            if m and func:
                yield func, m


def checks(out):
    """(validator, rule id) pairs."""
    return {(func, m.group(1)) for func, m in in_validators(out, CHECK)}


def validators(out):
    """Validator functions the generated header declares."""
    names = set()
    with open(os.path.join(out, "include", "ddi_validate.h"), encoding="utf-8") as f:
        for line in f:
            m = DECL.match(line)
            if m:
                names.add(m.group(1))
    return names


def checked(pairs, rule, direction=None):
    """Validators (of a direction, 'in' / 'out', or any) that check rule."""
    return sorted(f for f, r in pairs if r == rule and (direction is None or f.endswith("_" + direction)))


def absent(rule, why):
    def case(pairs, _decls):
        where = checked(pairs, rule)
        return f"{rule} is checked in {', '.join(where)}, but {why}" if where else None
    return case


def not_on(rule, direction, why):
    def case(pairs, _decls):
        where = checked(pairs, rule, direction)
        return f"{rule} is checked in {', '.join(where)}, but {why}" if where else None
    return case


def no_validator(name, why):
    def case(_pairs, decls):
        return f"{name} is generated, but {why}" if name in decls else None
    return case


def present(rule, direction, why):
    def case(pairs, _decls):
        return None if checked(pairs, rule, direction) else f"{rule} is not checked on _{direction}, but {why}"
    return case


def condition_of(out, rule):
    """The C condition the generated code tests for rule (its `if` line, with
    any preprocessor lines the condition spans), or None."""
    with open(os.path.join(out, "include", "ddi_validate.c"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() == f"/* {rule} */":
            cond = []
            for nxt in lines[i + 1:]:
                cond.append(nxt)
                if nxt.rstrip().endswith(") {"):
                    return "\n".join(cond)
    return None


def conditional(rule, direction, text, why):
    """rule is checked on _direction, under a condition that reads text."""
    def case(pairs, _decls, out):
        if not checked(pairs, rule, direction):
            return f"{rule} is not checked on _{direction}, but {why}"
        cond = condition_of(out, rule) or ""
        return None if text in cond else f"{rule} is checked without `{text}` in {cond!r}, but {why}"
    return case



def one_naming(why):
    """Every rule ID the validators check starts with a record's typedef
    name, none with its tag (`_DXGK_TRANSFERFLAGS.`)."""
    def case(pairs, _decls):
        tagged = sorted({r for _, r in pairs if r.startswith("_")})
        return f"{len(tagged)} rule IDs start with a tag ({', '.join(tagged[:3])}), but {why}" if tagged else None
    return case


REPORT = re.compile(r'^\s+n = ddi_validate_report_\(first, n, "([^"]+)", "([^"]*)",')


def reported_field(out, rule):
    """The field name the generated code reports for rule, or None."""
    for _, m in in_validators(out, REPORT):
        if m.group(1) == rule:
            return m.group(2)
    return None


def reports_field(rule, field, why):
    def case(_pairs, _decls, out):
        got = reported_field(out, rule)
        return None if got == field else f"{rule} reports the field as {got!r}, not {field!r}, but {why}"
    return case


def guarded_descent(validator, field, text, why):
    """The descent of validator into field sits under a #if that reads text."""
    def case(_pairs, _decls, out):
        func, guard = None, []
        with open(os.path.join(out, "include", "ddi_validate.c"), encoding="utf-8") as f:
            for line in f:
                m = FUNC.match(line)
                if m:
                    func, guard = m.group(1), []
                    continue
                if line.startswith("#if "):
                    guard.append(line.strip())
                elif line.startswith("#endif") and guard:
                    guard.pop()
                m = CALL.match(line)
                if func == validator and m and m.group(2) == field:
                    return None if any(text in g for g in guard) else \
                        f"{validator} descends into {field} under {guard!r}, not `{text}`, but {why}"
        return f"{validator} does not descend into {field}, but {why}"
    return case


CALL = re.compile(r"^\s+unsigned long k = (ddi_validate_\w+)\(&a->([\w.]+),")


def calls(out):
    """(validator, callee, field) of every descent into an embedded record."""
    return {(func, m.group(1), m.group(2)) for func, m in in_validators(out, CALL)}


def descends(validator, callee, field, why, expect=True):
    def case(_pairs, _decls, out):
        got = (validator, callee, field) in calls(out)
        if got == expect:
            return None
        return (f"{validator} does not call {callee} on {field}, but {why}" if expect
                else f"{validator} calls {callee} on {field}, but {why}")
    return case



CASES = {
    # 1. reserved-zero only where no named field shares the bits
    "notifyresidency_reserved_shares_resident":
        absent("DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY.Reserved:reserved-zero",
               "Reserved:31 and Resident:1 sit directly in one union: Reserved includes the Resident bit"),
    "reservegpuva_reserved0_aliases_reservationtype":
        absent("D3DDDI_RESERVEGPUVIRTUALADDRESS.Reserved0:reserved-zero",
               "Reserved0 is a union alias of ReservationType"),
    "reservegpuva_reserved1_aliases_driverprotection":
        absent("D3DDDI_RESERVEGPUVIRTUALADDRESS.Reserved1:reserved-zero",
               "Reserved1 is a union alias of DriverProtection"),
    "reservegpuva_reserved2_aliases_pagingfencevalue":
        absent("D3DDDI_RESERVEGPUVIRTUALADDRESS.Reserved2:reserved-zero",
               "Reserved2 is a union alias of the [out] PagingFenceValue"),
    # a flag union's reserved bits stay checked (through its Value word)
    "signalflags_reserved_still_checked":
        present("D3DDDICB_SIGNALFLAGS.Reserved:reserved-zero", "in",
                "Reserved shares its bits only with the flag word Value"),
    # 2. alignment on addresses, sizes and offsets only; 3. "might" is no requirement
    "mapcpuhostaperture_adapterindex_not_aligned":
        absent("DXGKARG_MAPCPUHOSTAPERTURE.PhysicalAdapterIndex:align",
               "an adapter index is no address, and the sentence says 'might be aligned'"),
    # 3. what the OS does, and misattributed subjects
    "allocationinfo_size_expanded_by_os":
        absent("DXGK_ALLOCATIONINFO.Size:align:size",
               "'the size value is expanded to a multiple of the native host page size' is what the OS does"),
    "signalflags_enqueuecpuevent_not_objectcount":
        absent("D3DDDICB_SIGNALFLAGS.EnqueueCpuEvent:reserved-zero",
               "'ObjectCount must be zero' is about another structure's ObjectCount"),
    "updategpuva_map_baseaddress_state":
        absent("D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION.Map.BaseAddress:reserved-zero",
               "'must be in the reserved (zero) or mapped state' is about the range, not the value"),
    "updategpuva_mapprotect_baseaddress_state":
        absent("D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION.MapProtect.BaseAddress:reserved-zero",
               "'must be in the reserved (zero) or mapped state' is about the range, not the value"),
    # 3. a condition that cannot be resolved drops the rule, never widens it
    "powerruntimestate_zero_for_f0_only":
        absent("DXGK_POWER_RUNTIME_STATE.TransitionLatency:reserved-zero",
               "'This value should be zero for the F0 state' holds for the F0 state only"),
    "syncobjectflags_topofpipeline_allowed_for_monitored_fences":
        absent("D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS.TopOfPipeline:reserved-zero",
               "the page allows TopOfPipeline for monitored fences: zero only 'for all other ... types'"),
    "syncobjectflags_nosignal_allowed_for_monitored_fences":
        absent("D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS.NoSignal:reserved-zero",
               "the page allows NoSignal for monitored fences: zero only 'for all other ... types'"),
    "mapgpuva_minimumaddress_ignored_when_baseaddress":
        absent("D3DDDI_MAPGPUVIRTUALADDRESS.MinimumAddress:align",
               "'This parameter is ignored when BaseAddress != NULL': the alignment holds only when it is used"),
    "submitcommandflags_contextswitch_paging_condition":
        absent("DXGK_SUBMITCOMMANDFLAGS.ContextSwitch:implies:Paging",
               "'If the current context was executing an operation that used a paging buffer' is not resolved"),
    # 4. direction
    "render_dmabuffer_not_aligned_on_out":
        not_on("DXGKARG_RENDER.pDmaBuffer:align", "out",
               "the driver advances pDmaBuffer to the next empty byte before it returns"),
    "present_dmabuffer_not_aligned_on_out":
        not_on("DXGKARG_PRESENT.pDmaBuffer:align", "out",
               "the driver advances pDmaBuffer to the next empty byte before it returns"),
    "render_dmabuffer_aligned_on_in":
        present("DXGKARG_RENDER.pDmaBuffer:align", "in",
                "the OS passes the start of the DMA buffer, aligned on 4 KB"),
    "submitcommand_no_out_validator":
        no_validator("ddi_validate_DXGKARG_SUBMITCOMMAND_out",
                     "DXGKDDI_SUBMITCOMMAND takes IN_CONST_PDXGKARG_SUBMITCOMMAND: the driver cannot write it"),
    # 4. enum fields hold a value of their enum at the compiled DDI version,
    # and only where one value is all the field may hold
    "queryadapterinfo_type_enum_values":
        conditional("DXGKARG_QUERYADAPTERINFO.Type:enum", "in", "#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN7)",
                    "Type is a DXGK_QUERYADAPTERINFOTYPE whose values grow with the DDI version"),
    "describeallocation_format_open":
        absent("DXGKARG_DESCRIBEALLOCATION.Format:enum",
               "D3DDDIFORMAT is open: FOURCC codes outside its enumerators are valid formats"),
    "describeallocation_rotation_drivers":
        absent("DXGKARG_DESCRIBEALLOCATION.Rotation:enum",
               "the driver writes Rotation (and the page calls it reserved): 0 is no D3DDDI_ROTATION"),
    "submitcommand_flipinterval_only_with_flip":
        absent("DXGKARG_SUBMITCOMMAND.FlipInterval:enum",
               "FlipInterval is valid only if the Flip flag is set: without it any value may be there"),
    "submitcommand_dmabuffervirtualaddress_not_drivers":
        not_on("DXGKARG_SUBMITCOMMAND.DmaBufferVirtualAddress:reserved-zero", "out",
               "the OS fills DmaBufferVirtualAddress; it is never the driver's to set"),
    # 6. direction by the path from the DDIs (depth helper): the embedding field decides
    "createallocationflags_reserved_not_on_out":
        not_on("DXGK_CREATEALLOCATIONFLAGS.Reserved:reserved-zero", "out",
               "DXGKARG_CREATEALLOCATION.Flags is [in]: the OS sets the flags, the driver does not write them"),
    "updatepagetableflags_reserved_not_on_out":
        not_on("DXGK_UPDATEPAGETABLEFLAGS.Reserved:reserved-zero", "out",
               "the flags reach the driver in BUILDPAGINGBUFFER's [in] UpdatePageTable member only"),
    "escapeflags_reserved_not_on_out":
        not_on("D3DDDI_ESCAPEFLAGS.Reserved:reserved-zero", "out", "DXGKARG_ESCAPE.Flags is set by the caller"),
    "gammarampcaps_reserved_not_on_in":
        not_on("DXGK_GAMMARAMPCAPS.Reserved:reserved-zero", "in",
               "DXGK_DRIVERCAPS.GammaRampCaps is [out]: the driver fills it, unset on entry"),
    "vidmmcaps_reserved_not_on_in":
        not_on("DXGK_VIDMMCAPS.PagingEngineCanSwizzle:reserved-zero", "in",
               "DXGK_DRIVERCAPS.MemoryManagementCaps is [out]: the driver fills it"),
    "enginestatus_reserved_not_on_in":
        not_on("DXGK_ENGINESTATUS.Reserved:reserved-zero", "in",
               "DXGKARG_QUERYENGINESTATUS.EngineStatus is [out]: the driver fills it"),
    "monitor_interface_version_not_drivers":
        absent("DXGK_MONITOR_INTERFACE.Version:range",
               "the OS returns the interface through DxgkCbQueryMonitorInterface's out pointer"),
    "brightness_caps_reserved_not_on_in":
        not_on("DXGK_BRIGHTNESS_CAPS.Reserved:reserved-zero", "in",
               "DxgkDdiGetBrightnessCaps, a function of the interface the driver hands the OS (dispmprt.h), takes "
               "_Out_ DXGK_BRIGHTNESS_CAPS*: on entry it is the OS's unfilled buffer"),
    # QueryAdapterInfo's pOutputData holds, by Type, what the enum's page
    # says the driver populates: its checks are the driver's, on return
    "qai_power_component_flags_on_out":
        present("DXGK_POWER_COMPONENT_FLAGS.Reserved:reserved-zero", "out",
                "DXGKQAITYPE_POWERCOMPONENTINFO: the driver populates a DXGK_POWER_RUNTIME_COMPONENT "
                "(ne-d3dkmddi-_dxgk_queryadapterinfotype.md:87), whose Flags it sets"),
    "qai_power_component_flags_not_on_in":
        not_on("DXGK_POWER_COMPONENT_FLAGS.Reserved:reserved-zero", "in",
               "on entry pOutputData is the OS's unfilled buffer"),
    "qai_gpummucaps_on_out":
        present("DXGK_GPUMMUCAPS.LeafPageTableSizeFor64KPagesInBytes:align:size", "out",
                "DXGKQAITYPE_GPUMMUCAPS: the driver populates a DXGK_GPUMMUCAPS (queryadapterinfotype.md:111)"),
    # a d3dukmdt.h flag record no kernel entry point reaches is an argument
    # of a user-mode call (pfn*Cb, D3DKMT thunks: "in:"), never returned
    "signalflags_reserved_not_on_out":
        not_on("D3DDDICB_SIGNALFLAGS.Reserved:reserved-zero", "out",
               "user mode sets the flags of a signal call; the OS returns nothing in them"),
    "createcontextflags_reserved_not_on_out":
        not_on("D3DDDI_CREATECONTEXTFLAGS.Reserved:reserved-zero", "out",
               "d3dkmthk.h: 'in: Context creation flags'; no miniport DDI returns them"),
    # the header's own comments: "DXGK_CREATEDEVICEFLAGS Flags; // in:" in
    # a union with "DXGK_DEVICEINFO* pInfo; // out:" (d3dkmddi.h:1111-1112)
    "createdevice_flags_not_on_out":
        not_on("DXGK_CREATEDEVICEFLAGS.Reserved:reserved-zero", "out",
               "d3dkmddi.h:1111 marks Flags 'in:', and on return its bits are the driver's pInfo"),
    # pfnReleaseAdditionalMonitorModeSet hands back the OS's array
    "targetmode_detail_timing_not_drivers":
        absent("DXGK_TARGETMODE_DETAIL_TIMING.VideoStandard:enum",
               "the OS returns the modes (pfnGetAdditionalMonitorModeSet); the driver only releases them"),
    "opm_standard_information_reserved_not_checked":
        absent("DXGKMDT_OPM_STANDARD_INFORMATION.ulReserved:reserved-zero",
               "the structure travels in the byte array abRequestedInformation: no path says who writes it, and "
               "on entry it is the OS's output buffer"),
    "page_table_level_desc_not_checked":
        absent("DXGK_PAGE_TABLE_LEVEL_DESC.PageTableSizeInBytes:align:size",
               "the structure is returned behind QueryAdapterInfo's PVOID pOutputData and marks no direction"),
    # 7. depth: a validator calls the validators of the records it embeds, in the path's direction
    "present_flags_descended_on_in":
        descends("ddi_validate_DXGKARG_PRESENT_in", "ddi_validate_DXGK_PRESENTFLAGS_in", "Flags",
                 "DXGKARG_PRESENT.Flags (DXGK_PRESENTFLAGS, [in]) has rules of its own page"),
    "submitcommand_flags_descended_on_in":
        descends("ddi_validate_DXGKARG_SUBMITCOMMAND_in", "ddi_validate_DXGK_SUBMITCOMMANDFLAGS_in", "Flags",
                 "the embedded flag union is never looked at otherwise"),
    "buildpagingbuffer_transfer_flags_descended":
        descends("ddi_validate_DXGKARG_BUILDPAGINGBUFFER__Transfer_in", "ddi_validate_DXGK_TRANSFERFLAGS_in",
                 "Transfer.Flags", "Operation selecting Transfer must check Transfer.Flags.Reserved"),
    # 8. readable output: one naming of rule IDs, fields as the header spells them,
    # no bits checked twice through two members of one union
    "rule_ids_named_by_typedef":
        one_naming("a rule ID names its record by the typedef, as the layout does"),
    "allocationinfo_flags_below_wddm2_only":
        guarded_descent("ddi_validate_DXGK_ALLOCATIONINFO_out", "Flags",
                        "DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM2_0",
                        "Flags and FlagsWddm2 share their bits; the page: drivers before WDDM 2.0 use Flags"),
    "allocationinfo_flagswddm2_from_wddm2_only":
        guarded_descent("ddi_validate_DXGK_ALLOCATIONINFO_out", "FlagsWddm2",
                        "DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0",
                        "the page: drivers from WDDM 2.0 on use FlagsWddm2"),
    # 9. an enum field of the member a caller-set selector picks is the caller's
    "updatepagetable_updatemode_enum_on_in":
        present("DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE.UpdateMode:enum", "in",
                "Operation [in] selects UpdatePageTable: the OS describes the update"),
    # 10. the header's SAL: a sized buffer is not NULL when its size is nonzero
    "setvidpnsourceaddress_private_data_sized":
        conditional("DXGKARG_SETVIDPNSOURCEADDRESS.pDriverPrivateData:nonnull-when:sal", "in",
                    "(unsigned long long)a->DriverPrivateDataSize != 0",
                    "_Field_size_bytes_(DriverPrivateDataSize) PVOID pDriverPrivateData (d3dkmddi.h:4158)"),
    "buildpagingbuffer_fill_does_not_check_transfer_flags":
        descends("ddi_validate_DXGKARG_BUILDPAGINGBUFFER__Fill_in", "ddi_validate_DXGK_TRANSFERFLAGS_in",
                 "Transfer.Flags", "another Operation selects another member", expect=False),
}

# Cases on a generation with the project's overrides and reviewed file
# (spec/overrides.xml, spec/reviewed.xml), as the measurements use.
REVIEWED_CASES = {
    # a reviewed condition `field == enumerator` is lowered, not dropped
    "reviewed_getstandard_sharedprimary_when_type":
        conditional("DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA.pCreateSharedPrimarySurfaceData:nonnull-when:reviewed", "in",
                    "(unsigned long long)a->StandardAllocationType == 1ull",
                    "the page requires the pointer only if StandardAllocationType specifies "
                    "D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE (= 1)"),
    "reviewed_getstandard_vgpu_when_type":
        conditional("DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA.pCreateVirtualGpuSurfaceData:nonnull-when:reviewed", "in",
                    "(unsigned long long)a->StandardAllocationType == 5ull",
                    "the page requires the pointer only if StandardAllocationType is D3DKMDT_STANDARDALLOCATION_VGPU (= 5)"),
    # fields as the header spells them where a macro made the name
    "reviewed_allocationinfo_reserved_spelled":
        reports_field("DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.DXGK_ALLOC_RESERVED15:reserved-zero", "DXGK_ALLOC_RESERVED15",
                      "the header declares DXGK_ALLOC_RESERVED15 (a macro makes it Reserved15): the page and the driver use that name"),
    # the header: FlagsWddm2 is "out: Except the reserved fields"; the page marks them [in]
    "reviewed_allocationinfo_reserved_on_in":
        present("DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.DXGK_ALLOC_RESERVED15:reserved-zero", "in",
                "the reserved bits are the caller's ([in] on the page, 'out: Except the reserved fields' in the header)"),
    "reviewed_allocationinfo_reserved_not_on_out":
        not_on("DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.DXGK_ALLOC_RESERVED15:reserved-zero", "out",
               "the driver does not write the reserved bits"),
    # GETSTANDARDALLOCATIONDRIVERDATA's size query leaves the surface data
    # unchanged (its page, remarks): a Pitch of 0 is valid there
    "reviewed_gdisurfacedata_pitch_not_checked":
        absent("D3DKMDT_GDISURFACEDATA.Pitch:nonzero:reviewed",
               "on the size query the driver should not change the structure (_dxgkarg_getstandardallocationdriverdata.md:103)"),
    "reviewed_shadowsurfacedata_pitch_not_checked":
        absent("D3DKMDT_SHADOWSURFACEDATA.Pitch:nonzero:reviewed",
               "on the size query the driver should not change the structure (_dxgkarg_getstandardallocationdriverdata.md:103)"),
    "reviewed_power_component_reserved0_not_checked":
        absent("DXGK_POWER_COMPONENT_FLAGS.Reserved0:reserved-zero",
               "d3dkmddi.h: 'Old drivers used to set the flag': the OS accepts it set"),
    # DxgkDdiCheckMultiPlaneOverlaySupport*: planes in, ReturnInfo out
    "reviewed_checkmpo_returninfo_not_on_in":
        not_on("DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO.Reserved:reserved-zero", "in",
               "ReturnInfo is the driver's answer, unfilled on entry"),
    "reviewed_checkmpo_returninfo_on_out":
        present("DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO.Reserved:reserved-zero", "out",
                "the driver fills ReturnInfo and leaves its reserved bits clear"),
    "reviewed_mpo_attributes2_not_on_out":
        not_on("DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2.StereoBaseViewFrame0:reserved-zero", "out",
               "the planes are the OS's question (pPlanes of DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2); the driver never writes them"),
    "monitor_frequency_range_not_the_drivers":
        absent("D3DKMDT_MONITOR_FREQUENCY_RANGE.ConstraintType:known-value",
               "the OS hands the ranges out only as const (pfnAcquireFirstFrequencyRangeInfo's "
               "CONST D3DKMDT_MONITOR_FREQUENCY_RANGE **); pfnAcquireNextFrequencyRangeInfo takes the OS's own range back"),
    "reviewed_physicaladapterflags_reserved_not_on_in":
        not_on("DXGK_PHYSICALADAPTERFLAGS.Reserved:reserved-zero", "in",
               "the flags are the driver's QueryAdapterInfo answer (DXGK_PHYSICALADAPTERCAPS), unfilled on entry"),
    "reviewed_plane_input_flags_not_on_out":
        not_on("DXGK_PLANE_SPECIFIC_INPUT_FLAGS.Reserved:reserved-zero", "out",
               "the input flags are the OS's request; the driver does not write them"),
    "reviewed_plane_output_flags_not_on_in":
        not_on("DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS.Reserved:reserved-zero", "in",
               "the output flags are status the driver returns, unfilled on entry"),
    "reviewed_plane_output_flags_on_out":
        present("DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS.Reserved:reserved-zero", "out",
                "the driver returns the output flags with their reserved bits clear"),
    "reviewed_allocationinfo_named_flags_on_out":
        present("DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.Protected:exclusive:PermanentSysMem", "out",
                "the driver sets the named flags"),
}


def run(case, out):
    fn = CASES.get(case) or REVIEWED_CASES[case]
    pairs, decls = checks(out), validators(out)
    # a case that reads the generated C beyond the pairs takes the folder too
    takes_out = len(inspect.signature(fn).parameters) == 3
    return fn(pairs, decls, out) if takes_out else fn(pairs, decls)


def main(argv):
    if len(argv) == 3 and argv[1] == "list":
        for f, r in sorted(checks(argv[2])):
            print(f, r)
        return 0
    if len(argv) == 2 and argv[1] == "cases":
        print("\n".join(list(CASES) + list(REVIEWED_CASES)))
        return 0
    if len(argv) != 4 or argv[1] != "check" or (argv[3] not in CASES and argv[3] not in REVIEWED_CASES):
        print(__doc__, file=sys.stderr)
        return 2
    wrong = run(argv[3], argv[2])
    if wrong:
        print(f"FAIL {argv[3]}: {wrong}")
        return 1
    print(f"ok {argv[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
