<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by ddi_marshal.h.xsl and ddi_marshal.c.xsl (not rendered on its
     own: emit renders only top-level *.xsl). Decides, once, how each field
     of a DDI record is put on the wire, so the encoder, the decoder and the
     map-size count can never disagree:
       u / s   unsigned / signed CBOR integer, as the layout stage's scalar
               facts say (enums are signed, as MSVC's int)
       ptr     an address (uint), or, with a SAL size rule naming a sibling
               field, the pointee bytes (follow)
       rec     a map: another DDI record of the spec, by its own field IDs
       raw     a byte string of the field's bytes (unions without a
               discriminator stay members, so this is for opaque types,
               floats, kernel records and arrays that are not 1-D)
       arr     a CBOR array, one item per element (1-D arrays of u/s/rec)
       bytes   a byte string (1-D arrays of 1-byte integers, type-bytes 1)  -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:d="urn:ddigen:xslt"
                exclude-result-prefixes="d">

  <xsl:variable name="m-versions" select="/ddi-spec/layout/version"/>
  <!-- The records that get marshallers: the DDI's own, not the kernel's. -->
  <xsl:variable name="m-records" select="/ddi-spec/layout/record[not(@referenced = 'true') and @id]"/>
  <xsl:key name="m-record-by-type" match="/ddi-spec/layout/record[not(@referenced = 'true') and @id]"
           use="concat(@kind, ' ', @tag)"/>
  <xsl:key name="m-record-by-name" match="/ddi-spec/layout/record[not(@referenced = 'true') and @id]" use="@name"/>
  <xsl:key name="m-discriminator" match="/ddi-spec/merge/discriminator" use="@union"/>

  <!-- The C spelling of a top-level record's type. -->
  <xsl:template name="m-ctype">
    <xsl:param name="rec" select="."/>
    <xsl:choose>
      <xsl:when test="$rec/@cxx-type"><xsl:value-of select="concat('DDI_MARSHAL_TYPE_', d:c-ident($rec/@name))"/></xsl:when>
      <xsl:when test="$rec/@tag and $rec/@tag = $rec/@name"><xsl:value-of select="concat($rec/@kind, ' ', $rec/@tag)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$rec/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The canonical type, for fields whose canonical type differs by arch
       (SIZE_T, ULONG_PTR): the first one; they differ in width only. -->
  <xsl:template name="m-canonical">
    <xsl:param name="f" select="."/>
    <xsl:variable name="c">
      <xsl:choose>
        <xsl:when test="$f/@canonical"><xsl:value-of select="$f/@canonical"/></xsl:when>
        <xsl:when test="$f/canonical"><xsl:value-of select="$f/canonical[1]/@type"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$f/@type"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <!-- Qualifiers do not change the wire form. -->
    <xsl:variable name="c1">
      <xsl:choose>
        <xsl:when test="starts-with($c, 'volatile ')"><xsl:value-of select="substring-after($c, 'volatile ')"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$c"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="starts-with($c1, 'const ') and not(contains($c1, '*'))"><xsl:value-of select="substring-after($c1, 'const ')"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$c1"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Class of a type from the facts the layout stage asked of clang
       (scalar: signed, unsigned, pointer, float, record): u, s, ptr, rec
       (a record the spec gives marshallers, found by its canonical
       spelling c), raw. An enum reads as its integer type (int: s). -->
  <xsl:template name="m-scalar-class">
    <xsl:param name="scalar"/>
    <xsl:param name="c"/>
    <xsl:choose>
      <xsl:when test="$scalar = 'pointer'">ptr</xsl:when>
      <xsl:when test="$scalar = 'signed'">s</xsl:when>
      <xsl:when test="$scalar = 'unsigned'">u</xsl:when>
      <xsl:when test="$scalar = 'record' and (count(key('m-record-by-type', $c)) = 1 or count(key('m-record-by-name', $c)) = 1)">rec</xsl:when>
      <xsl:otherwise>raw</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="m-record-of">
    <xsl:param name="c"/>
    <xsl:choose>
      <xsl:when test="count(key('m-record-by-type', $c)) = 1"><xsl:value-of select="key('m-record-by-type', $c)/@name"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="key('m-record-by-name', $c)/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Wire class of a leaf field (no nested record element): u, s, ptr,
       follow, rec, raw, arr-u, arr-s, arr-rec, bytes, skip. -->
  <xsl:template name="m-class">
    <xsl:param name="f" select="."/>
    <xsl:param name="in-union" select="0"/>
    <xsl:variable name="c"><xsl:call-template name="m-canonical"><xsl:with-param name="f" select="$f"/></xsl:call-template></xsl:variable>
    <!-- The type facts: on the field, else on its first <type-size> (they
         differ by arch in width only: SIZE_T, pointers). -->
    <xsl:variable name="facts" select="($f | $f/type-size)[@scalar][1]"/>
    <xsl:variable name="type-bytes" select="($f | $f/type-size)[@type-bytes][1]/@type-bytes"/>
    <xsl:if test="not($facts) and $f/@name != ''">
      <xsl:message terminate="yes"><xsl:value-of select="concat('field ', $f/@path, ' of ', $f/ancestor::record[last()]/@name, ' has no scalar type facts: the spec predates them; write it again with this ddigen (ddigen layout, ddigen spec)')"/></xsl:message>
    </xsl:if>
    <xsl:variable name="sc"><xsl:call-template name="m-scalar-class"><xsl:with-param name="scalar" select="$facts/@scalar"/><xsl:with-param name="c" select="$c"/></xsl:call-template></xsl:variable>
    <xsl:choose>
      <xsl:when test="$f/@name = ''">skip</xsl:when>
      <xsl:when test="$f/@array = 'flexible' or contains($f/@array, 'flexible')">skip</xsl:when>
      <xsl:when test="$f/@array and contains($f/@array, ' ')">raw</xsl:when>
      <xsl:when test="$f/@array and ($sc = 'u' or $sc = 's') and not($facts/@enum) and $type-bytes = 1">bytes</xsl:when>
      <xsl:when test="$f/@array and ($sc = 'u' or $sc = 's' or $sc = 'rec')"><xsl:value-of select="concat('arr-', $sc)"/></xsl:when>
      <xsl:when test="$f/@array">raw</xsl:when>
      <xsl:when test="$f/@bits">
        <xsl:choose>
          <xsl:when test="$sc = 's'">s</xsl:when>
          <xsl:otherwise>u</xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:when test="$sc = 'ptr' and $in-union = 0 and string-length(substring-before(substring-after($f/@sal, '('), ')')) &gt; 0">
        <xsl:variable name="size-field" select="substring-before(substring-after($f/@sal, '('), ')')"/>
        <xsl:variable name="prefix">
          <xsl:call-template name="m-parent-prefix"><xsl:with-param name="path" select="$f/@path"/></xsl:call-template>
        </xsl:variable>
        <!-- An element count needs the pointee's size: a scalar or a record
             the spec lays out (a pointer to an incomplete type stays an
             address). As always, T ** is judged by T (pointee-base). -->
        <xsl:variable name="pointee" select="normalize-space(substring-before(concat(substring-after($c, 'const '), substring($c, 1, number(not(starts-with($c, 'const '))) * string-length($c))), '*'))"/>
        <xsl:variable name="pointee-complete" select="number($facts/@pointee-base = 'signed' or $facts/@pointee-base = 'unsigned'
                                                            or ($facts/@pointee-base = 'record' and count(/ddi-spec/layout/record[concat(@kind, ' ', @tag) = $pointee]) &gt; 0))"/>
        <xsl:choose>
          <xsl:when test="(starts-with($f/@sal, '_Field_size_bytes_(') or starts-with($f/@sal, '_Field_size_bytes_opt_(')
                           or ((starts-with($f/@sal, '_Field_size_(') or starts-with($f/@sal, '_Field_size_opt_('))
                               and $pointee-complete = 1))
                          and translate($size-field, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_', '') = ''
                          and $f/../field[@path = concat($prefix, $size-field) and not(@array) and not(record)]">follow</xsl:when>
          <xsl:otherwise>ptr</xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$sc"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "A.B.C" -> "A.B." ; "C" -> "" -->
  <xsl:template name="m-parent-prefix">
    <xsl:param name="path"/>
    <xsl:if test="contains($path, '.')">
      <xsl:value-of select="concat(substring-before($path, '.'), '.')"/>
      <xsl:call-template name="m-parent-prefix"><xsl:with-param name="path" select="substring-after($path, '.')"/></xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The size field of a followed pointer, as a path. -->
  <xsl:template name="m-size-path">
    <xsl:param name="f" select="."/>
    <xsl:variable name="prefix">
      <xsl:call-template name="m-parent-prefix"><xsl:with-param name="path" select="$f/@path"/></xsl:call-template>
    </xsl:variable>
    <xsl:value-of select="concat($prefix, substring-before(substring-after($f/@sal, '('), ')'))"/>
  </xsl:template>

  <!-- The preprocessor condition under which a spec element exists, or ''. -->
  <xsl:template name="m-cond">
    <xsl:param name="e" select="."/>
    <xsl:variable name="v">
      <xsl:if test="$e/@versions"><xsl:value-of select="concat('(', d:version-cond($e/@versions, $m-versions), ')')"/></xsl:if>
    </xsl:variable>
    <xsl:variable name="a">
      <xsl:if test="$e/@archs">
        <xsl:text>(0</xsl:text>
        <xsl:if test="contains(concat(' ', $e/@archs, ' '), ' x86 ')"> || DDI_MRT_ARCH_X86</xsl:if>
        <xsl:if test="contains(concat(' ', $e/@archs, ' '), ' x64 ')"> || DDI_MRT_ARCH_X64</xsl:if>
        <xsl:if test="contains(concat(' ', $e/@archs, ' '), ' arm64 ')"> || DDI_MRT_ARCH_ARM64</xsl:if>
        <xsl:text>)</xsl:text>
      </xsl:if>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$v != '' and $a != ''"><xsl:value-of select="concat($v, ' &amp;&amp; ', $a)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat($v, $a)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The conjunction of the conditions of a field and the fields it is
       nested in (a nested level function exists only where they all do). -->
  <xsl:template name="m-cond-chain">
    <xsl:param name="f"/>
    <xsl:for-each select="$f/ancestor-or-self::field[@versions or @archs]">
      <xsl:if test="position() &gt; 1"> &amp;&amp; </xsl:if>
      <xsl:call-template name="m-cond"/>
    </xsl:for-each>
  </xsl:template>

  <!-- The CBOR bytes of a key (a field ID), precomputed: id < 24 is one
       byte, then 0x18 NN, then 0x19 HH LL. -->
  <xsl:template name="m-key-args">
    <xsl:param name="id"/>
    <xsl:choose>
      <xsl:when test="$id &lt; 24"><xsl:value-of select="concat('1, ', d:hex($id), ', 0, 0')"/></xsl:when>
      <xsl:when test="$id &lt; 256"><xsl:value-of select="concat('2, 0x18, ', d:hex($id), ', 0')"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat('3, 0x19, ', d:hex(floor($id div 256)), ', ', d:hex($id mod 256))"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
