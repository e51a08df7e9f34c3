<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by ddi_dispatch.h.xsl and ddi_dispatch.c.xsl (not rendered on its
     own: emit renders only top-level templates/*.xsl). Which discriminators
     get a table, which of their cases are table entries, and how a case's
     facts (first version, member offset and size per architecture) are
     spelled in C. One definition, so the header and the source agree. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:d="urn:ddigen:xslt"
                xmlns:dv="urn:ddigen:view"
                exclude-result-prefixes="d dv">
  <xsl:variable name="versions" select="/ddi-spec/layout/version"/>
  <xsl:variable name="archs" select="/ddi-spec/layout/arch"/>
  <xsl:key name="top-record" match="/ddi-spec/layout/record" use="@name"/>
  <!-- Largest enum value a table covers: a sentinel such as 0x7FFFFFFF
       would otherwise make a table of two billion entries. Larger values
       take the out-of-range path. -->
  <xsl:variable name="max-table-value" select="1023"/>
  <!-- Every discriminator whose record the layout has (every enum field
       the spec found selecting a member of a union), within the driver's
       scope (dv:out-of-scope, gen/emit/scope.c). -->
  <xsl:variable name="discriminators" select="/ddi-spec/merge/discriminator[key('top-record', @record)[not(@dv:out-of-scope)]]"/>

  <!-- ddi_<RECORD>_<selector>: the prefix of a table's names. -->
  <xsl:template name="prefix">
    <xsl:param name="disc" select="."/>
    <xsl:text>ddi_</xsl:text><xsl:value-of select="d:c-ident($disc/@record)"/>
    <xsl:text>_</xsl:text><xsl:value-of select="d:c-ident($disc/@selector)"/>
  </xsl:template>

  <!-- A version set's first version, as its DXGKDDI_INTERFACE_VERSION_*
       macro; no set means every version the spec knows. -->
  <xsl:template name="since">
    <xsl:param name="set"/>
    <xsl:variable name="first-token" select="substring-before(concat(normalize-space($set), ' '), ' ')"/>
    <xsl:variable name="first" select="substring-before(concat($first-token, '-'), '-')"/>
    <xsl:choose>
      <xsl:when test="$first != '' and $versions[@short = $first]">
        <xsl:value-of select="$versions[@short = $first]/@name"/>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$versions[1]/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A C constant expression choosing among measured values by version:
       (cond1) ? v1 : (cond2) ? v2 : 0. Values are bytes (bits div 8 for
       offsets). $nodes: <offset> or <size> elements of one architecture. -->
  <xsl:template name="by-version">
    <xsl:param name="nodes"/>
    <xsl:param name="attr"/>
    <xsl:choose>
      <xsl:when test="not($nodes)">0</xsl:when>
      <xsl:when test="count($nodes) = 1 and not($nodes/@versions)">
        <xsl:call-template name="value-of-measure">
          <xsl:with-param name="node" select="$nodes"/>
          <xsl:with-param name="attr" select="$attr"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>(</xsl:text>
        <xsl:for-each select="$nodes">
          <xsl:choose>
            <xsl:when test="@versions">
              <xsl:value-of select="@dv:version-cond"/>
            </xsl:when>
            <xsl:otherwise>1</xsl:otherwise>
          </xsl:choose>
          <xsl:text> ? </xsl:text>
          <xsl:call-template name="value-of-measure">
            <xsl:with-param name="node" select="."/>
            <xsl:with-param name="attr" select="$attr"/>
          </xsl:call-template>
          <xsl:text> : </xsl:text>
        </xsl:for-each>
        <xsl:text>0)</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="value-of-measure">
    <xsl:param name="node"/>
    <xsl:param name="attr"/>
    <xsl:choose>
      <xsl:when test="$attr = 'bits'"><xsl:value-of select="floor($node/@bits div 8)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$node/@bytes"/></xsl:otherwise>
    </xsl:choose>
    <xsl:text>u</xsl:text>
  </xsl:template>

  <!-- The condition under which a case is usable at the compiled
       DXGKDDI_INTERFACE_VERSION: the enumerator and its member both exist. -->
  <xsl:template name="case-available">
    <xsl:param name="case" select="."/>
    <xsl:param name="field"/>
    <xsl:variable name="c1">
      <xsl:choose>
        <xsl:when test="$case/@versions"><xsl:value-of select="$case/@dv:version-cond"/></xsl:when>
        <xsl:otherwise>1</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="c2">
      <xsl:choose>
        <xsl:when test="$field/@versions"><xsl:value-of select="$field/@dv:version-cond"/></xsl:when>
        <xsl:otherwise>1</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$c1 = '1' and $c2 = '1'">1</xsl:when>
      <xsl:when test="$c2 = '1'"><xsl:value-of select="$c1"/></xsl:when>
      <xsl:when test="$c1 = '1'"><xsl:value-of select="$c2"/></xsl:when>
      <xsl:otherwise><xsl:text>(</xsl:text><xsl:value-of select="$c1"/>
                     <xsl:text> &amp;&amp; </xsl:text><xsl:value-of select="$c2"/>
                     <xsl:text>)</xsl:text></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The record's own existence (versions, architectures) as a
       preprocessor condition. -->
  <xsl:template name="record-condition">
    <xsl:param name="record"/>
    <xsl:choose>
      <xsl:when test="$record/@versions"><xsl:value-of select="$record/@dv:version-cond"/></xsl:when>
      <xsl:otherwise>1</xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
