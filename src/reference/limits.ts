// Every numeric rule of the spec in one table, so handlers and README cite the same numbers.

export const LIMITS = {
  temperature: { min: 0, max: 2 },
  audioTemperature: { min: 0, max: 1 },
  topP: { min: 0, max: 1 },
  penalty: { min: -2, max: 2 },
  logitBias: { min: -100, max: 100 },
  stopSequences: 4,
  logprobs: { min: 0, max: 5 },
  completionN: { min: 1, max: 128 },
  bestOf: { min: 1, max: 20 },
  completionDefaultMaxTokens: 16,
  editN: { min: 1, max: 20 },
  imageN: { min: 1, max: 10 },
  imagePromptChars: 1000,
  imageFileBytes: 4 * 1024 * 1024,
  imageSizes: ['256x256', '512x512', '1024x1024'],
  imageResponseFormats: ['url', 'b64_json'],
  embeddingInputTokens: 8192,
  embeddingDimensions: 1536,
  audioExtensions: ['mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'wav', 'webm'],
  audioResponseFormats: ['json', 'text', 'srt', 'verbose_json', 'vtt'],
  defaultQuotaBytes: 1024 * 1024 * 1024,
  /** Hard cap on any request body; far above the 4 MB image limit, below memory trouble. */
  maxRequestBodyBytes: 256 * 1024 * 1024,
  fineTuneSuffixChars: 40,
  fineTuneDefaultEpochs: 4,
  fineTuneDefaultPromptLossWeight: 0.01,
  /** Automatic batch size: about 0.2% of the training examples, at least 1, at most 256. */
  fineTuneAutoBatch: { share: 0.002, min: 1, max: 256 },
  /** Automatic learning-rate multiplier by final batch size (first row whose maxBatch >= batch_size). */
  fineTuneAutoLearningRate: [
    { maxBatch: 4, multiplier: 0.05 },
    { maxBatch: 64, multiplier: 0.1 },
    { maxBatch: Number.POSITIVE_INFINITY, multiplier: 0.2 },
  ],
  fineTuneBaseModels: ['ada', 'babbage', 'curie', 'davinci'],
  fineTuneDefaultModel: 'curie',
  moderationFlagThreshold: 0.5,
} as const;
