<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by ddi_marshal.h.xsl and ddi_marshal.c.xsl (not rendered on its
     own: emit renders only top-level *.xsl). How each field of a DDI record
     is put on the wire is decided once, in C, before rendering
     (gen/emit/view.c wire_facts: dv:wire, with dv:c-type, dv:record,
     dv:key, dv:lvalue, dv:size-path on the field), so the encoder, the
     decoder and the map-size count can never disagree. The classes:
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
                xmlns:dv="urn:ddigen:view"
                exclude-result-prefixes="d dv">

  <!-- The records that get marshallers: the DDI's own, not the kernel's,
       within the driver's scope (dv:out-of-scope, gen/emit/scope.c). -->
  <xsl:variable name="m-records" select="/ddi-spec/layout/record[not(@referenced = 'true') and @id and not(@dv:out-of-scope)]"/>
  <xsl:key name="m-discriminator" match="/ddi-spec/merge/discriminator" use="@union"/>

  <!-- The C spelling of a top-level record's type. -->
  <xsl:template name="m-ctype">
    <xsl:param name="rec" select="."/>
    <xsl:choose>
      <xsl:when test="$rec/@cxx-type"><xsl:text>DDI_MARSHAL_TYPE_</xsl:text><xsl:value-of select="d:c-ident($rec/@name)"/></xsl:when>
      <xsl:when test="$rec/@tag and $rec/@tag = $rec/@name"><xsl:value-of select="$rec/@kind"/><xsl:text> </xsl:text><xsl:value-of select="$rec/@tag"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$rec/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The preprocessor condition under which a spec element exists, or ''
       (dv:marshal-cond, gen/emit/view.c: versions, and architectures
       as the runtime's DDI_MRT_ARCH_* macros). -->
  <xsl:template name="m-cond">
    <xsl:param name="e" select="."/>
    <xsl:value-of select="$e/@dv:marshal-cond"/>
  </xsl:template>

  <!-- The conjunction of the conditions of a field and the fields it is
       nested in (a nested level function exists only where they all do). -->
  <xsl:template name="m-cond-chain">
    <xsl:param name="f"/>
    <xsl:value-of select="$f/@dv:marshal-cond-chain"/>
  </xsl:template>

</xsl:stylesheet>
