/**
 * Fictional product lines for simulated hardware (no real trademarks). Each entry carries the
 * serial prefix and the versions a healthy unit runs; the previous firmware is what a tile that
 * missed an update still reports (firmware-mismatch deviation).
 */
export const AGENT_PRODUCT = { product: 'Pixelfleet Edge Agent', serialPrefix: 'PFA', version: '3.4.2' }

export const PROCESSORS = [
  { product: 'Lumera Tessel SX40', serialPrefix: 'LTS', software: '3.8.1', firmware: '2.14.0', maxTiles: 96 },
  { product: 'Lumera Tessel MX20', serialPrefix: 'LTM', software: '3.8.1', firmware: '2.14.0', maxTiles: 48 },
  { product: 'Vantor Prism P8', serialPrefix: 'VPP', software: '5.2.0', firmware: '5.2.0', maxTiles: 64 },
] as const

/** Receiver cards, shown in the portal as tiles; paired with the processor family. */
export const RECEIVERS = [
  { product: 'Lumera Tessel R2 receiver', serialPrefix: 'LTR', firmware: '4.6.2', previousFirmware: '4.5.9' },
  { product: 'Vantor Prism RX receiver', serialPrefix: 'VPR', firmware: '1.9.4', previousFirmware: '1.8.7' },
] as const

export const SWITCHES = [
  { product: 'Netvane NV-2400 24-port', serialPrefix: 'NVS', software: '7.1.3', firmware: '1.2.0', ports: 24 },
  { product: 'Netvane NV-4800 48-port', serialPrefix: 'NVS', software: '7.1.3', firmware: '1.2.0', ports: 48 },
] as const

export const PDUS = [
  { product: 'Voltspan PX-16 metered PDU', serialPrefix: 'VSP', firmware: '2.3.5', outlets: 8, ratingA: 16 },
  { product: 'Voltspan PX-32 metered PDU', serialPrefix: 'VSP', firmware: '2.3.5', outlets: 12, ratingA: 32 },
] as const

export const DISPLAYS = [
  { product: 'Clarion View 55 monitor', serialPrefix: 'CLV', firmware: '1.0.18' },
  { product: 'Clarion View 32 monitor', serialPrefix: 'CLV', firmware: '1.0.18' },
] as const

export const PROJECTORS = [
  { product: 'Lumiq Beam 20K projector', serialPrefix: 'LQB', firmware: '6.04', lampLifeHours: 20000 },
  { product: 'Lumiq Beam 12K projector', serialPrefix: 'LQB', firmware: '6.04', lampLifeHours: 20000 },
] as const

export const MATRICES = [{ product: 'Routa Grid 32x32 router', serialPrefix: 'RGR', firmware: '3.3.0', size: 32 }] as const

export const INPUT_SOURCES = ['HDMI 1', 'HDMI 2', 'SDI 1', 'SDI 2', 'DP 1', '12G-SDI 1'] as const
/** Frame rates with the video format that usually goes with them. */
export const FRAME_RATES = [59.94, 50, 60, 29.97, 25] as const
export const RESOLUTIONS = ['3840x2160', '1920x1080', '4096x2160'] as const

export const SYSTEM_NAMES = ['Main Wall', 'Upstage Wall', 'IMAG Left', 'IMAG Right', 'Ceiling', 'XR Volume', 'Floor', 'Fascia Ring', 'Side Screen', 'Delay Screen'] as const

export const SITE_NAMES = [
  'Arena North FOH', 'Studio 4 Volume', 'Convention Hall B', 'Stadium East', 'Theatre Royal',
  'Festival Main Stage', 'Broadcast Centre', 'Expo Pavilion', 'Club Vault', 'Museum Atrium',
  'Studio 9 XR', 'Outdoor Plaza',
] as const
