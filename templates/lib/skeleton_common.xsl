<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by the ddi_skeleton*.xsl templates (not rendered on its own).
     Which structure the driver kind fills, which of its members are
     callbacks, which of those exist at the chosen DDI version and are on
     the driver's list, and each callback's names, signature and IRQL.
     Everything comes from the spec: the members and their version gates
     from the kind's record, signatures from the function typedefs. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:d="urn:ddigen:xslt"
                xmlns:dv="urn:ddigen:view"
                exclude-result-prefixes="d dv">
  <!-- ddi-version: a short name (WDDM2_0) or the macro; default the newest.
       ddi-list: callback names separated by spaces ('all': every one).
       driver-kind: full (DRIVER_INITIALIZATION_DATA, DxgkInitialize) or
       display-only (KMDDOD_INITIALIZATION_DATA, DxgkInitializeDisplayOnlyDriver). -->
  <xsl:param name="ddi-version" select="''"/>
  <xsl:param name="ddi-list" select="'all'"/>
  <xsl:param name="driver-kind" select="'full'"/>
  <!-- thunks: all (a thunk per callback calls the driver's function) or
       none (the table holds the driver's functions). callback-name: the
       driver's names (the view resolves them into dv:driver-name). -->
  <xsl:param name="thunks" select="'all'"/>
  <xsl:param name="callback-name" select="''"/>

  <xsl:variable name="versions" select="/ddi-spec/layout/version"/>
  <xsl:key name="fn" match="/ddi-spec/layout/function-type" use="@name"/>
  <xsl:key name="typedef" match="/ddi-spec/layout/typedef" use="@name"/>
  <xsl:key name="record-by-tag" match="/ddi-spec/layout/record" use="@tag"/>
  <xsl:key name="record" match="/ddi-spec/layout/record" use="@name"/>
  <xsl:key name="page-with-irql" match="/ddi-spec/docs/page[@irql]" use="@name"/>

  <!-- The derived view (emit's view.c and skeleton_opts.c) marks the first
       version of the driver's range (dv:chosen) and its last when it is
       closed (dv:range-last), what exists in it (dv:at-chosen, with
       dv:member-if when only at part of it), the callback members on the
       list (dv:listed) with the driver's names (dv:driver-name), and the
       IRQL of their function types (dv:irql, dv:pageable). -->
  <xsl:variable name="chosen" select="$versions[@dv:chosen]"/>
  <xsl:variable name="range-last" select="$versions[@dv:range-last]"/>
  <xsl:variable name="table-only" select="$thunks = 'none'"/>
  <xsl:variable name="kind-record-name">
    <xsl:choose>
      <xsl:when test="$driver-kind = 'display-only'">KMDDOD_INITIALIZATION_DATA</xsl:when>
      <xsl:otherwise>DRIVER_INITIALIZATION_DATA</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="initialize-call">
    <xsl:choose>
      <xsl:when test="$driver-kind = 'display-only'">DxgkInitializeDisplayOnlyDriver</xsl:when>
      <xsl:otherwise>DxgkInitialize</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="kind-record" select="/ddi-spec/layout/record[@name = $kind-record-name]"/>
  <!-- Members whose type is a pointer to a function typedef (PDXGKDDI_X). -->
  <xsl:variable name="callbacks" select="$kind-record/field[key('fn', @type)/@pointer-to]"/>
  <xsl:variable name="list" select="concat(' ', normalize-space($ddi-list), ' ')"/>
  <xsl:variable name="listed" select="$callbacks[@dv:listed]"/>
  <xsl:variable name="chosen-callbacks" select="$listed[@dv:at-chosen]"/>
  <xsl:variable name="class-members" select="$chosen-callbacks[@dv:driver-member]"/>
  <xsl:variable name="version-field" select="$kind-record/field[@name = 'Version']"/>

  <!-- Stops the transform on parameters that name nothing (emit checks
       them first, so this is a second line). -->
  <xsl:template name="check-parameters">
    <xsl:if test="$driver-kind != 'full' and $driver-kind != 'display-only'">
      <xsl:message terminate="yes">driver-kind '<xsl:value-of select="$driver-kind"/>': expected full or display-only</xsl:message>
    </xsl:if>
    <xsl:if test="$versions and not($chosen)">
      <xsl:message terminate="yes">ddi-version '<xsl:value-of select="$ddi-version"/>' is not a DDI version of the spec</xsl:message>
    </xsl:if>
    <xsl:if test="$chosen and $kind-record and not($kind-record/@dv:at-chosen)">
      <xsl:message terminate="yes"><xsl:value-of select="concat($kind-record-name, ' does not exist at ', $chosen/@short, ' (only ', $kind-record/@versions, ')')"/></xsl:message>
    </xsl:if>
  </xsl:template>

  <!-- DxgkDdiBuildPagingBuffer -> BuildPagingBuffer -->
  <xsl:template name="short-name">
    <xsl:param name="member" select="."/>
    <xsl:choose>
      <xsl:when test="starts-with($member/@name, 'DxgkDdi')"><xsl:value-of select="substring-after($member/@name, 'DxgkDdi')"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$member/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The role typedef (DXGKDDI_BUILDPAGINGBUFFER) of a member. -->
  <xsl:template name="role">
    <xsl:param name="member" select="."/>
    <xsl:value-of select="key('fn', $member/@type)[1]/@pointer-to"/>
  </xsl:template>

  <!-- The IRQL a callback runs at (the view's: the reference page's
       req.irql when the spec has the docs, else the header's SAL in any of
       its spellings); '' when neither says. -->
  <xsl:template name="irql">
    <xsl:param name="role"/>
    <xsl:value-of select="key('fn', $role)[1]/@dv:irql"/>
  </xsl:template>

  <!-- 'yes' when the callback runs only at PASSIVE_LEVEL: pageable, PAGED_CODE(). -->
  <xsl:template name="pageable">
    <xsl:param name="role"/>
    <xsl:if test="key('fn', $role)[1]/@dv:pageable">yes</xsl:if>
  </xsl:template>

  <!-- The #if around what a member that exists at only part of the range
       brings (its declaration, thunk and table entry), and its #endif. -->
  <xsl:template name="member-if">
    <xsl:param name="member" select="."/>
    <xsl:if test="$member/@dv:member-if">
      <xsl:value-of select="concat('#if ', $member/@dv:member-if, '&#10;')"/>
    </xsl:if>
  </xsl:template>
  <xsl:template name="member-endif">
    <xsl:param name="member" select="."/>
    <xsl:if test="$member/@dv:member-if">
      <xsl:text>#endif&#10;</xsl:text>
    </xsl:if>
  </xsl:template>

  <!-- The driver's range in words: WDDM2_0 to WDDM2_1, or WDDM2_0 and later. -->
  <xsl:template name="range-text">
    <xsl:choose>
      <xsl:when test="$range-last and count($range-last | $chosen) = 1"><xsl:value-of select="$chosen/@name"/></xsl:when>
      <xsl:when test="$range-last"><xsl:value-of select="concat($chosen/@name, ' to ', $range-last/@name)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat($chosen/@name, ' and later')"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The record a parameter points to ('' when none): through a typedef's
       canonical type (struct _TAG *) or a spelled RECORD *. -->
  <xsl:template name="param-record">
    <xsl:param name="type"/>
    <xsl:variable name="bare" select="normalize-space(translate(concat(' ', $type, ' '), '*', ' '))"/>
    <xsl:variable name="name">
      <xsl:choose>
        <xsl:when test="starts-with($bare, 'const ')"><xsl:value-of select="substring-after($bare, 'const ')"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$bare"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="canonical" select="key('typedef', $name)/@canonical"/>
    <xsl:variable name="tag" select="normalize-space(substring-before(substring-after($canonical, 'struct '), '*'))"/>
    <xsl:choose>
      <xsl:when test="contains($type, '*') and key('record', $name)[not(@referenced)]">
        <xsl:value-of select="$name"/>
      </xsl:when>
      <xsl:when test="$tag != '' and contains($canonical, '*') and not(contains(substring-after($canonical, '*'), '*'))
                      and key('record-by-tag', $tag)[not(@referenced)]">
        <xsl:value-of select="key('record-by-tag', $tag)[1]/@name"/>
      </xsl:when>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
