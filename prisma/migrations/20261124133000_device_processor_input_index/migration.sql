-- Hand-written (Prisma's schema cannot express it): the Agents list's input filter compares the
-- processors' properties.inputSource; read from this partial expression index instead of parsing
-- every processor's JSON per page (the expression matches jsonText() in app/domain/fleet/dialect.server.ts).
CREATE INDEX "Device_processor_inputSource_idx" ON "Device"(json_extract("properties", '$.inputSource'), "systemId") WHERE "component" = 'processor';
