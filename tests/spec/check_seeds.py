#!/usr/bin/env python3
"""Assertions on the spec of the seeds + the 26100 fixture (see spec_seeds.sh)."""
import sys
import xml.etree.ElementTree as ET

spec, lint = sys.argv[1], sys.argv[2]
root = ET.parse(spec).getroot()
merge = root.find('merge')
failures = 0


def check(cond, what):
    global failures
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures += 1


pages = {p.get('source').split('/')[-1][:3]: p for p in merge.findall('page')}
check(len(pages) == 5, 'five seed pages merged')
for key, page in sorted(pages.items()):
    matches = page.findall('match')
    unmatched = [m.get('doc') or m.get('ordinal') for m in matches if m.get('how') == 'none']
    check(matches and not unmatched and page.get('record'),
          f'seed {key} ({page.get("record")}): all {len(matches)} members matched {unmatched or ""}')

# seed 004: descriptions without names, matched by order and content
want = ['Flags', 'BaseAddress', 'CpuTranslatedAddress', 'Size', 'NbOfBanks', 'pBankRangeTable',
        'CommitLimit', 'SystemMemoryEndAddress', 'Reserved']
got = [(m.get('ordinal'), m.get('field'), m.get('how')) for m in pages['004'].findall('match')]
check([g[1] for g in got] == want, f'seed 004 descriptions -> {[g[1] for g in got]}')
check(all(g[2] == 'order+content' for g in got), 'seed 004 matches say how (order+content)')
for r in pages['004'].findall('rule'):
    if r.get('ref') == 'DXGK_SEGMENTDESCRIPTOR3.#4:units':
        check(r.get('field') == 'Size', 'rule #4:units attached to Size')

# seed 000: anonymous members and the rules' operands
anon = [m for m in pages['000'].findall('match') if m.get('how') == 'anonymous-member']
check(len(anon) == 3 and anon[0].get('field') == 'SpecialLockTransfer.Source.(unnamed union)',
      'seed 000 "X.(unnamed union)" headings matched to the anonymous members')
rules = {r.get('ref'): r for p in merge.findall('page') for r in p.findall('rule')}
disc = rules['DXGKARG_BUILDPAGINGBUFFER.Transfer.Source.SegmentId:discriminator']
sel = disc.find("operand[@name='selects']")
check(disc.get('field') == 'Transfer.Source.SegmentId' and sel is not None and sel.get('field') == 'Transfer.Source.pMdl'
      and sel.get('field-id'), 'discriminator rule attached, selects -> Transfer.Source.pMdl with its id')

# seed 001: Protection.NoAccess is a field path through the protection type
nw = rules['D3DDDI_MAPGPUVIRTUALADDRESS.hAllocation:null-when']
refs = {o.get('value'): o for o in nw.findall("operand[@name='ref']")}
check(refs['Protection.NoAccess'].get('field') == 'Protection.NoAccess'
      and refs['Protection.NoAccess'].get('record') == 'D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE'
      and refs['Protection.Zero'].get('field-id'), 'null-when operands resolved to field paths (Protection.NoAccess)')
cap = rules['DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.MapApertureCpuVisible:requires-cap:MapAperature2Supported']
check(cap.find('operand').get('field') == 'MapAperture2Supported' and cap.find('operand').get('how') == 'typo',
      'requires-cap operand with the page typo (MapAperature2Supported) resolved as a typo')

# seed 002: every bit rule attached; CreateInVpr / Reserved00 shared by version
bits = [r for r in pages['002'].findall('rule') if r.get('kind') == 'bit']
check(len(bits) == 17 and all(r.get('field-id') for r in bits), f'seed 002: {len(bits)} bit rules attached')
text = open(lint).read()
check('DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.CreateInVpr and Reserved00 both claim bit 10; the header declares them as '
      'alternatives by DDI version (CreateInVpr: WDDM2_1-WDDM3_2; Reserved00: VISTA-WDDM2_0) [bit-shared-by-version]'
      in text, 'lint: CreateInVpr/Reserved00 bit 10 is a note (alternatives by version)')
check('bit-mismatch' not in text, 'lint: every other seed-002 bit agrees with the header')

# op -> union member map, ops 0..22
expected = ['Transfer', 'Fill', 'DiscardContent', 'ReadPhysical', 'WritePhysical', 'MapApertureSegment',
            'UnmapApertureSegment', 'SpecialLockTransfer', 'TransferVirtual', 'FillVirtual', 'InitContextResource',
            'UpdatePageTable', 'FlushTlb', 'UpdateContextAllocation', 'CopyPageTableEntries', 'NotifyResidency',
            'SignalMonitoredFence', 'MapApertureSegment2', 'NotifyFenceResidency', 'MmapMmu', 'UnmapMmu',
            'NotifyResidency2', 'NotifyAllocation']
d = [x for x in merge.findall('discriminator') if x.get('enum') == 'DXGK_BUILDPAGINGBUFFER_OPERATION']
check(len(d) == 1 and d[0].get('selector') == 'Operation' and d[0].get('union') == 'DXGKARG_BUILDPAGINGBUFFER.(unnamed union)',
      'DXGK_BUILDPAGINGBUFFER_OPERATION recorded as the discriminator of the DXGKARG_BUILDPAGINGBUFFER union')
cases = {int(c.get('number')): c for c in d[0].findall('case')}
got = [cases[i].get('member') for i in range(23)]
check(got == expected, 'op -> member map for ops 0-22: ' + ', '.join(f'{i}:{m}' for i, m in enumerate(got)))
check(cases[19].get('how') == 'override' and cases[22].get('how') == 'override'
      and cases[8].get('how') == 'name-reordered', 'MAP_MMU/NOTIFY_ALLOC from overrides, VIRTUAL_TRANSFER reordered')
check(all(c.get('field-id') and c.get('value-id') for c in cases.values()), 'every case carries both stable IDs')
print(f'{failures} failed')
sys.exit(1 if failures else 0)
